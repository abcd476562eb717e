package com.editlock.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The writer's rules, each forced with a manual clock and sinks that fail on demand. */
class LiveStreamsTest {

    private final AtomicLong now = new AtomicLong(10_000);
    private final List<List<String>> lost = new ArrayList<>();
    private final LiveStreams streams =
            new LiveStreams(tabs -> lost.add(List.copyOf(tabs)), now::get);

    /**
     * A client's end of a stream: what reached it, whether it was ended, and whether it has gone.
     */
    static final class Client implements LiveStreams.Sink {
        final StringBuilder received = new StringBuilder();
        final List<String> writers = new ArrayList<>();
        boolean gone;

        /** Takes nothing: the container's queue for it is full. */
        boolean full;

        int ended;

        @Override
        public boolean ready() {
            return !full;
        }

        @Override
        public void write(String text) throws IOException {
            writers.add(Thread.currentThread().getName());
            if (gone) {
                throw new IOException("Broken pipe");
            }
            received.append(text);
        }

        @Override
        public void end() {
            writers.add(Thread.currentThread().getName());
            ended++;
        }
    }

    @Test
    void aNewStreamIsToldHowSoonToReconnectAndThenKeptAliveAtItsCadence() {
        Client c = new Client();
        streams.open(c, List.of("a"));
        streams.pass();
        assertThat(c.received).hasToString("retry: " + LiveStreams.RETRY_MILLIS + "\n\n");
        now.addAndGet(LiveStreams.KEEP_ALIVE_MILLIS - 1);
        streams.pass();
        assertThat(c.received).hasToString("retry: " + LiveStreams.RETRY_MILLIS + "\n\n");
        now.addAndGet(1);
        streams.pass();
        assertThat(c.received).hasToString("retry: " + LiveStreams.RETRY_MILLIS + "\n\n:\n\n");
        for (int probe = 1; probe <= LiveStreams.PROBES; probe++) {
            now.addAndGet(LiveStreams.PROBE_MILLIS);
            streams.pass();
        }
        now.addAndGet(
                LiveStreams.KEEP_ALIVE_MILLIS
                        - LiveStreams.PROBES * LiveStreams.PROBE_MILLIS
                        - 1); // the moment before the next keep-alive
        streams.pass();
        assertThat(c.received)
                .as("the probes after the keep-alive, no more")
                .hasToString(
                        "retry: "
                                + LiveStreams.RETRY_MILLIS
                                + "\n\n"
                                + ":\n\n".repeat(1 + LiveStreams.PROBES));
    }

    @Test
    void aClientThatLeftIsNoticedByTheProbeThatFollowsTheFirstKeepAliveAfterIt() {
        Client c = new Client();
        streams.open(c, List.of("a"));
        streams.pass();
        now.addAndGet(LiveStreams.KEEP_ALIVE_MILLIS);
        streams.pass(); // keep-alive
        c.gone =
                true; // (a real client's socket takes the first write after it left, and resets the
        // connection)
        now.addAndGet(LiveStreams.PROBE_MILLIS);
        streams.pass(); // the probe
        assertThat(lost).containsExactly(List.of("a"));
    }

    /**
     * A stopping node asks for a keep-alive before it ends its streams without a grace: a client
     * that left a moment before is noticed by its probes, not lost with the stop (its tab then
     * keeps its lock until the lease ends).
     */
    @Test
    void aKeepAliveAskedForComesAtOnceAndItsProbeNoticesAClientThatLeft() {
        Client c = new Client();
        streams.open(c, List.of("a"));
        streams.pass();
        now.addAndGet(LiveStreams.KEEP_ALIVE_MILLIS);
        streams.pass(); // the keep-alive at its time, and its probes
        for (int probe = 1; probe <= LiveStreams.PROBES; probe++) {
            now.addAndGet(LiveStreams.PROBE_MILLIS);
            streams.pass();
        }
        now.addAndGet(50); // long before the next keep-alive is due
        streams.keepAliveNow();
        streams.pass();
        assertThat(c.received).endsWith(":\n\n".repeat(2 + LiveStreams.PROBES));
        c.gone = true; // it left: the keep-alive asked for was the first write after
        now.addAndGet(LiveStreams.PROBE_MILLIS);
        streams.pass(); // its probe
        assertThat(lost).containsExactly(List.of("a"));
    }

    @Test
    void aClientThatLeftJustBeforeNewsIsNoticedByTheNextKeepAliveNotOneLater() {
        Client c = new Client();
        streams.open(c, List.of("a"));
        streams.pass();
        now.addAndGet(LiveStreams.KEEP_ALIVE_MILLIS);
        streams.pass(); // keep-alive
        for (int probe = 1; probe <= LiveStreams.PROBES; probe++) {
            now.addAndGet(LiveStreams.PROBE_MILLIS);
            streams.pass();
        }
        now.addAndGet(
                LiveStreams.KEEP_ALIVE_MILLIS - LiveStreams.PROBES * LiveStreams.PROBE_MILLIS - 50);
        streams.tell("a", "lock");
        streams.pass(); // the news: a real client that just left still takes this write, and
        // resets the connection
        c.gone = true;
        now.addAndGet(50);
        streams.pass(); // the keep-alive, 50 ms after the news
        assertThat(lost)
                .as("noticed at the keep-alive after the news, not a second later")
                .containsExactly(List.of("a"));
    }

    /** The held writes handed out and not yet run: each runs when the test says. */
    private final List<Runnable> heldWrites = new ArrayList<>();

    private final LiveStreams holding =
            new LiveStreams(tabs -> lost.add(List.copyOf(tabs)), now::get, heldWrites::add);

    /**
     * A client that takes nothing (its queue full) gets one write at a time on a thread of its own;
     * the writer goes on telling everyone else at once, the stalled client's news waits coalesced,
     * and after {@link LiveStreams#STALL_MILLIS} its tabs are reported lost. Its response is
     * completed when the held write gives up, never under it.
     */
    @Test
    void aClientThatTakesNothingHoldsUpNoOneAndIsJudgedGoneAfterTheStall() {
        Client stalled = new Client();
        Client other = new Client();
        holding.open(stalled, List.of("a"));
        holding.open(other, List.of("b"));
        holding.pass();
        stalled.full = true;
        holding.tell("a", "lock");
        holding.tell("b", "lock");
        holding.pass();
        assertThat(other.received).contains("{\"tab\":\"b\",\"type\":\"lock\"}");
        assertThat(heldWrites).as("the stalled client's write is held, not made here").hasSize(1);
        assertThat(stalled.received).doesNotContain("\"tab\"");
        for (int i = 0; i < 1000; i++) {
            holding.tell("a", "lock");
            holding.tell("b", "presence");
            holding.pass();
        }
        now.addAndGet(LiveStreams.STALL_MILLIS - 1);
        holding.pass(); // a keep-alive: to the other one only
        assertThat(heldWrites).as("one held write at a time, whatever comes meanwhile").hasSize(1);
        assertThat(other.received).endsWith("{\"tab\":\"b\",\"type\":\"presence\"}\n\n:\n\n");
        assertThat(lost).isEmpty();

        now.addAndGet(1);
        holding.pass();
        assertThat(lost).as("judged gone after the stall").containsExactly(List.of("a"));
        assertThat(stalled.ended).as("not completed under its waiting write").isZero();
        assertThat(holding.tell("a", "lock")).isFalse();
        heldWrites.remove(0).run(); // the write gives up (the container's write time-out)
        assertThat(stalled.ended).as("completed once its write came back").isOne();
        holding.pass();
        assertThat(stalled.ended).isOne();
        assertThat(lost).hasSize(1);
        assertThat(other.ended).isZero();
    }

    /**
     * A client that was slow for a moment keeps its stream: once its held write is through, what
     * waited meanwhile follows, once per tab.
     */
    @Test
    void aHeldWriteThatGoesThroughIsFollowedByWhatWaitedMeanwhile() {
        Client slow = new Client();
        holding.open(slow, List.of("a"));
        holding.pass();
        slow.full = true;
        holding.tell("a", "lock");
        holding.pass();
        holding.tell("a", "presence");
        holding.pass();
        holding.tell("a", "presence");
        now.addAndGet(LiveStreams.STALL_MILLIS - 1);
        holding.pass();
        slow.full = false;
        heldWrites.remove(0).run();
        assertThat(slow.received).endsWith("{\"tab\":\"a\",\"type\":\"lock\"}\n\n");
        holding.pass();
        assertThat(slow.received)
                .endsWith(
                        "{\"tab\":\"a\",\"type\":\"lock\"}\n\n"
                                + "data: {\"tab\":\"a\",\"type\":\"presence\"}\n\n");
        now.addAndGet(LiveStreams.STALL_MILLIS);
        holding.pass();
        assertThat(lost).isEmpty();
        assertThat(slow.ended).isZero();
        assertThat(heldWrites).isEmpty();
    }

    /** A held write that fails (the connection is closed) ends the stream at the next turn. */
    @Test
    void aHeldWriteThatFailsEndsTheStreamAtOnce() {
        Client left = new Client();
        holding.open(left, List.of("a", "b"));
        holding.pass();
        left.full = true;
        holding.tell("a", "lock");
        holding.pass();
        left.gone = true;
        heldWrites.remove(0).run();
        holding.pass();
        assertThat(lost).containsExactly(List.of("a", "b"));
        assertThat(left.ended).isOne();
    }

    /**
     * A stream ended for another reason (its holder opened one too many) while its held write waits
     * is completed by that write when it returns, once.
     */
    @Test
    void aStreamEndedWhileItsWriteIsHeldIsCompletedByThatWriteOnce() {
        Client first = new Client();
        holding.open(first, "s", List.of("a"));
        holding.pass();
        first.full = true;
        holding.tell("a", "lock");
        holding.pass();
        for (int i = 0; i < LiveStreams.MAX_STREAMS_PER_SESSION; i++) {
            holding.open(new Client(), "s", List.of("t" + i));
        }
        holding.pass();
        assertThat(lost).containsExactly(List.of("a"));
        assertThat(first.ended).isZero();
        heldWrites.remove(0).run();
        holding.pass();
        assertThat(first.ended).isOne();
    }

    @Test
    void messagesForATabAreCoalescedUntilTheWriterRuns() {
        Client c = new Client();
        streams.open(c, List.of("a", "b"));
        streams.pass();
        for (int i = 0; i < 1000; i++) {
            streams.tell("a", "lock");
        }
        streams.tell("b", "presence");
        streams.tell("a", "presence");
        streams.pass();
        assertThat(c.received.toString().split("\n\n"))
                .containsExactly(
                        "retry: " + LiveStreams.RETRY_MILLIS,
                        "data: {\"tab\":\"a\",\"type\":\"presence\"}",
                        "data: {\"tab\":\"b\",\"type\":\"presence\"}");
    }

    @Test
    void theFirstFailedWriteEndsTheStreamAndReportsItsTabsOnce() {
        Client c = new Client();
        streams.open(c, List.of("a", "b"));
        streams.pass();
        c.gone = true;
        now.addAndGet(LiveStreams.KEEP_ALIVE_MILLIS);
        streams.pass();
        now.addAndGet(LiveStreams.KEEP_ALIVE_MILLIS);
        streams.pass();
        assertThat(lost).containsExactly(List.of("a", "b"));
        assertThat(c.ended).isOne();
        assertThat(streams.size()).isZero();
        assertThat(streams.tell("a", "lock")).as("nothing carries the tab any more").isFalse();
    }

    @Test
    void aTabCarriedByANewerStreamGetsItsMessagesThereAndGoesBackToTheOlderOneWhenTheNewerEnds() {
        Client older = new Client();
        Client newer = new Client();
        streams.open(older, List.of("a"));
        streams.open(newer, List.of("a", "b"));
        streams.pass();
        streams.tell("a", "lock");
        streams.pass();
        assertThat(newer.received).contains("\"tab\":\"a\"");
        assertThat(older.received).doesNotContain("\"tab\"");

        newer.gone = true;
        now.addAndGet(LiveStreams.KEEP_ALIVE_MILLIS);
        streams.pass();
        assertThat(lost).containsExactly(List.of("a", "b"));
        streams.tell("a", "again");
        streams.pass();
        assertThat(older.received).contains("{\"tab\":\"a\",\"type\":\"again\"}");
    }

    @Test
    void aMessageQueuedForAStreamThatDiesOnItsFirstWriteIsDroppedWithTheStream() {
        Client c = new Client();
        c.gone = true;
        LiveStreams.Stream s = streams.open(c, List.of("a"));
        streams.tell(s, "x", "unknown");
        streams.pass();
        assertThat(lost).containsExactly(List.of("a"));
        assertThat(s.isEnded()).isTrue();
        assertThat(streams.tell(s, "x", "unknown")).isFalse();
    }

    @Test
    void everyWriteAndEveryEndHappenOnTheWriterThreadNeverOnTheCallers() throws Exception {
        Client c = new Client();
        LiveStreams live = new LiveStreams(tabs -> {}, System::currentTimeMillis);
        Thread writer = new Thread(live, "the-writer");
        writer.start();
        live.open(c, List.of("a")); // from this (a "request") thread
        live.tell("a", "lock");
        live.stop();
        writer.join(5000);
        assertThat(writer.isAlive()).isFalse();
        assertThat(c.ended).as("the writer ends its streams as it stops").isOne();
        assertThat(c.writers).isNotEmpty().containsOnly("the-writer");
    }

    @Test
    void aSessionThatOpensOneStreamTooManyLosesItsOldestAndKeepsTheRest() {
        List<Client> clients = new ArrayList<>();
        for (int i = 0; i <= LiveStreams.MAX_STREAMS_PER_SESSION; i++) {
            Client c = new Client();
            clients.add(c);
            streams.open(c, "session-1", List.of("tab-" + i, "shared"));
        }
        Client other = new Client();
        streams.open(other, "session-2", List.of("theirs"));
        streams.pass();
        assertThat(clients.get(0).ended).as("the oldest stream of the session ends").isEqualTo(1);
        assertThat(clients.subList(1, clients.size()))
                .allSatisfy(c -> assertThat(c.ended).isZero());
        assertThat(other.ended).as("another session's stream is not touched").isZero();
        assertThat(streams.size()).isEqualTo(LiveStreams.MAX_STREAMS_PER_SESSION + 1);
        assertThat(lost)
                .as("its tabs are reported lost, so their open count goes down")
                .containsExactly(List.of("tab-0", "shared"));
        assertThat(streams.tell("shared", "lock"))
                .as("a tab the newer streams carry still gets its news")
                .isTrue();
        streams.pass();
        assertThat(clients.get(LiveStreams.MAX_STREAMS_PER_SESSION).received)
                .contains("\"tab\":\"shared\",\"type\":\"lock\"");
    }

    /**
     * Sessions cost a login and no more, so a person's streams over all their sessions are bounded
     * too: one more ends that person's oldest, and nobody else's at the same address.
     */
    @Test
    void aPersonWhoOpensOneStreamTooManyOverManySessionsLosesTheirOldestOnly() {
        List<Client> saras = new ArrayList<>();
        for (int i = 0; i <= LiveStreams.MAX_STREAMS_PER_PERSON; i++) {
            Client c = new Client();
            saras.add(c);
            streams.open(c, "sara-" + i, "sara", "10.0.0.1", List.of("s" + i));
        }
        Client omars = new Client();
        streams.open(omars, "omar-1", "omar", "10.0.0.1", List.of("o"));
        streams.pass();
        assertThat(saras.get(0).ended).as("Sara's oldest").isOne();
        assertThat(saras.subList(1, saras.size())).allSatisfy(c -> assertThat(c.ended).isZero());
        assertThat(lost).containsExactly(List.of("s0"));
        assertThat(omars.ended).as("another person at the same address").isZero();
        assertThat(streams.size()).isEqualTo(LiveStreams.MAX_STREAMS_PER_PERSON + 1);
    }

    /** One client address holds a bounded number of streams, whoever opens them. */
    @Test
    void anAddressThatOpensOneStreamTooManyLosesItsOldest() {
        List<Client> clients = new ArrayList<>();
        for (int i = 0; i <= LiveStreams.MAX_STREAMS_PER_ADDRESS; i++) {
            Client c = new Client();
            clients.add(c);
            streams.open(c, "s" + i, "person-" + i, "10.9.9.9", List.of("t" + i));
        }
        Client elsewhere = new Client();
        streams.open(elsewhere, "x", "person-0", "10.9.9.8", List.of("x"));
        streams.pass();
        assertThat(clients.get(0).ended).isOne();
        assertThat(clients.subList(1, clients.size()))
                .allSatisfy(c -> assertThat(c.ended).isZero());
        assertThat(elsewhere.ended).isZero();
        assertThat(streams.size()).isEqualTo(LiveStreams.MAX_STREAMS_PER_ADDRESS + 1);
    }

    /**
     * A stream none of whose tabs is a page any more (its session ended, its pages were left) is
     * told so and then ended, releasing nothing; a stream with a page left stays.
     */
    @Test
    void aStreamWithNoPageLeftIsToldSoAndEnded() {
        Client both = new Client();
        Client other = new Client();
        streams.open(both, List.of("a", "b"));
        streams.open(other, List.of("c"));
        streams.pass();
        streams.forget("a");
        streams.pass();
        assertThat(both.received).contains("{\"tab\":\"a\",\"type\":\"unknown\"}");
        assertThat(both.ended).as("b is still a page").isZero();
        streams.forget("b");
        streams.pass();
        assertThat(both.received).contains("{\"tab\":\"b\",\"type\":\"unknown\"}");
        assertThat(both.ended).isOne();
        assertThat(lost).as("no page: nothing to release").isEmpty();
        assertThat(other.ended).isZero();
        assertThat(streams.size()).isOne();
        streams.forget("gone");
        streams.pass();
        assertThat(other.ended).as("a tab nobody carries changes nothing").isZero();
    }
}
