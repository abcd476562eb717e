package com.editlock.live;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The open event streams of this node and the one thread that writes to them. Plain logic: the
 * container is behind {@link Sink}, so each race (a push to a stream that just died, a tab carried
 * by two streams at once, a stream that dies while its first bytes are written) is forced in a unit
 * test.
 *
 * <p><b>One writer.</b> Every byte written to a stream, and the end of every stream, happens on the
 * thread running {@link #run()} (a thread the application owns), or for a stream whose client does
 * not keep up, on the thread of its held write (below). Request threads, the lock feed and timers
 * only queue a message and wake it. Payara runs a response's completion on whichever thread calls
 * it and recycles the request's objects into that thread's cache; a request thread that completed
 * another request's stream would hand objects still in use to its own next request. Nothing here
 * ever runs on a request thread.
 *
 * <p><b>Gone is a failed write.</b> The container does not tell the application that a client left.
 * Every stream gets a keep-alive comment every {@link #KEEP_ALIVE_MILLIS} (news in between does not
 * put it off), and {@link #PROBES} probe {@link #PROBE_MILLIS} after it, half-way to the next: a
 * write every 125 ms. The first write after the client left still succeeds (the client's side only
 * answers it with a reset); the next one fails, and the sink reports that failure itself (the
 * container would only at the write after: {@code LiveStream}). So a client that left is noticed
 * 125–250 ms later (docs/live-channel.md). The first write that fails (or throws anything) means
 * the client is gone: the stream is ended and every tab it carried is reported to {@code lost}
 * once.
 *
 * <p><b>No stream holds up another.</b> The writer writes to a stream only while the container says
 * its queue has room ({@link Sink#ready()}): such a write never waits. A stream whose queue is full
 * (its client takes nothing, or has just gone) gets its next write on a thread of its own (a
 * <em>held</em> write, {@code held} runs it), which waits for room or fails at once when the
 * connection is closed; meanwhile the writer passes that stream by, and its news waits, coalesced.
 * A held write still waiting after {@link #STALL_MILLIS} means the client takes nothing: the stream
 * is ended then and its tabs reported lost, like a client that left; the held write gives up at the
 * listener's write time-out, then completes the stream, which waits as long again (Grizzly then
 * closes the connection once its queue is sent: docs/live-channel.md). So what the node keeps for a
 * client that reads nothing is its queue and one message per tab, and the other streams' news and
 * keep-alives never wait for it.
 *
 * <p><b>Coalesced.</b> A message only says "look again", so a tab's unsent message is replaced by
 * the next one: a burst of a thousand lock changes makes each open page look at most a few times,
 * never a thousand.
 *
 * <p><b>No page, no stream.</b> A tab whose view ended (left, evicted, its session over) is told
 * {@code unknown} ({@link #forget}); a stream left with none of its tabs a page is ended right
 * after that message, so a logged-out session holds no stream open.
 *
 * <p><b>Bounded per session, person and address.</b> One session holds at most {@link
 * #MAX_STREAMS_PER_SESSION} streams: a browser's pages share one, and a browser without shared
 * workers opens one per tab. One person holds at most {@link #MAX_STREAMS_PER_PERSON} over all
 * their sessions (a new session costs a login, nothing more), one client address at most {@link
 * #MAX_STREAMS_PER_ADDRESS}. Opening one more ends that holder's oldest (its tabs are reported
 * lost, and the ones the newer streams carry stay counted there), so a script cannot pile up open
 * responses, and a person's newest tab always gets its stream.
 */
final class LiveStreams implements Runnable {

    /**
     * How often every stream gets a keep-alive comment, with its probe half-way to the next: a
     * write to every stream every 125 ms. A write fails once the client's reset for the write
     * before it is back, so a client that left is noticed 125–250 ms after it left; the spread
     * between those (125 ms) is what the tab-close grace must allow for on top of a reconnection,
     * so it sets how soon a crashed browser's locks can be free. Evenly spaced writes give the
     * narrowest spread for their number. Eight writes a second cost each stream 24 bytes a second.
     */
    static final long KEEP_ALIVE_MILLIS = 250;

    /** How long after each keep-alive, and after each other, the probes follow. */
    static final long PROBE_MILLIS = 125;

    /** How many probes follow each keep-alive. */
    static final int PROBES = 1;

    /**
     * What reconnecting clients wait before trying again ({@code retry:}): a connection dropped by
     * a proxy's restart or a node's change is back within this of the path's return, well inside
     * the tab-close grace.
     */
    static final long RETRY_MILLIS = 100;

    /**
     * How long a held write may wait for its client to take something before the stream is judged
     * gone: a client that reads at all frees room in far less.
     */
    static final long STALL_MILLIS = 5000;

    /** The most streams one session holds open at once. */
    static final int MAX_STREAMS_PER_SESSION = 16;

    /**
     * The most streams one person holds open at once, over all their sessions: three browsers that
     * open one per tab (sessions cost nothing, so a session's bound alone bounds nobody).
     */
    static final int MAX_STREAMS_PER_PERSON = 3 * MAX_STREAMS_PER_SESSION;

    /**
     * The most streams one client address holds open at once: an office of two thousand browsers
     * behind one address (a NAT, a proxy that names no client) fits; beyond it, only someone with
     * more than forty accounts could go.
     */
    static final int MAX_STREAMS_PER_ADDRESS = 2048;

    private static final Logger LOG = Logger.getLogger(LiveStreams.class.getName());

    /**
     * Where one stream's bytes go: the container's response, or a test's buffer. Called on the
     * writer only.
     */
    interface Sink {
        /**
         * Writes and flushes {@code text}; throws when the client is gone. Waits for room only when
         * {@link #ready()} said no.
         */
        void write(String text) throws IOException;

        /**
         * Whether a write now would go out without waiting (the container's queue for the client
         * has room); false also for a client that is gone. Throws when the stream is no more.
         */
        default boolean ready() {
            return true;
        }

        /**
         * Ends the stream (completes the response); must not throw for a client that is already
         * gone.
         */
        void end();
    }

    /** One open stream: the tabs it carries and what waits to be written to it. */
    static final class Stream {
        final Sink sink;
        final List<String> tabs;

        /**
         * What it is counted against (its session, person and client address, each with its own
         * bound); empty for a stream counted against nothing.
         */
        final List<String> holders;

        /** Unsent messages by tab; guarded by itself. */
        private final Map<String, String> pending = new LinkedHashMap<>();

        private boolean started;
        private long lastWrite;

        /** Got a keep-alive this second, so the probes follow. */
        private boolean probe;

        /** Its tabs that are no pages any more. */
        private final Set<String> forgotten = ConcurrentHashMap.newKeySet();

        /** Waits in {@code dirty}: a stream is queued there once however many messages wait. */
        private final AtomicBoolean queued = new AtomicBoolean();

        private volatile boolean ended;

        /**
         * A held write is under way ({@code held} runs it); guarded by the stream, with {@code
         * ended}: whichever of the held write's return and the stream's end comes second completes
         * the response.
         */
        private boolean writing;

        /** When the held write under way began (the writer's clock). */
        private long heldSince;

        private Stream(Sink sink, List<String> holders, List<String> tabs) {
            this.sink = sink;
            this.holders = holders;
            this.tabs = List.copyOf(tabs);
        }

        boolean isEnded() {
            return ended;
        }
    }

    private final Set<Stream> streams = ConcurrentHashMap.newKeySet();

    /** The newest stream that carries each tab: messages for the tab go there. */
    private final Map<String, Stream> byTab = new ConcurrentHashMap<>();

    /** Each holder's open streams (a session's, a person's, an address's), oldest first. */
    private final Map<String, Deque<Stream>> byHolder = new HashMap<>(); // guarded by itself

    /** Streams to end on the writer: the oldest of a holder that opened too many. */
    private final Queue<Stream> retired = new ConcurrentLinkedQueue<>();

    /** Streams none of whose tabs is a page any more: ended once what they were told is out. */
    private final Queue<Stream> emptied = new ConcurrentLinkedQueue<>();

    private final Queue<Stream> dirty = new ConcurrentLinkedQueue<>();

    /** Streams whose held write came back: done, or failed (their client is gone). */
    private final Queue<Stream> returned = new ConcurrentLinkedQueue<>();

    private final Queue<Stream> failed = new ConcurrentLinkedQueue<>();

    /** Streams with a held write under way; the writer's own. */
    private final Set<Stream> holding = new java.util.HashSet<>();

    private final Semaphore wake = new Semaphore(0);
    private final Consumer<Collection<String>> lost;
    private final Clock clock;
    private final Executor held;

    private volatile boolean running = true;

    /** A keep-alive asked for out of turn ({@link #keepAliveNow}). */
    private volatile boolean keepAliveAsked;

    private long lastKeepAlive;

    /** How many probes of the current keep-alive are still to be written. */
    private int probesDue;

    /** Milliseconds, monotonic; a test's clock moves by hand. */
    interface Clock {
        long millis();
    }

    /**
     * {@code lost} is told, on the writer, of the tabs of each stream that ended (each stream
     * once).
     */
    LiveStreams(Consumer<Collection<String>> lost, Clock clock) {
        this(lost, clock, Runnable::run);
    }

    /**
     * As above; {@code held} runs the writes to streams whose queue is full, each on a thread of
     * its own (they wait for their client).
     */
    LiveStreams(Consumer<Collection<String>> lost, Clock clock, Executor held) {
        this.lost = lost;
        this.clock = clock;
        this.held = held;
        this.lastKeepAlive =
                clock.millis(); // the first keep-alive a second from now, not on top of the
        // first stream's greeting
    }

    /**
     * A client opened a stream that carries {@code tabs}; its first bytes are written by the
     * writer, soon.
     */
    Stream open(Sink sink, List<String> tabs) {
        return open(sink, null, tabs);
    }

    /**
     * A client of {@code session} opened a stream that carries {@code tabs}; beyond {@link
     * #MAX_STREAMS_PER_SESSION} the session's oldest stream is ended (on the writer).
     */
    Stream open(Sink sink, String session, List<String> tabs) {
        return open(sink, session, null, null, tabs);
    }

    /**
     * A client of {@code session}, logged in as {@code person}, from {@code address} (either may be
     * null: not counted) opened a stream that carries {@code tabs}. Beyond the bound of its session
     * ({@link #MAX_STREAMS_PER_SESSION}), its person ({@link #MAX_STREAMS_PER_PERSON}) or its
     * address ({@link #MAX_STREAMS_PER_ADDRESS}) that holder's oldest stream is ended (on the
     * writer): the newest tab always gets its stream.
     */
    Stream open(Sink sink, String session, String person, String address, List<String> tabs) {
        List<String> holders = new ArrayList<>(3);
        if (session != null) {
            holders.add("session:" + session);
        }
        if (person != null) {
            holders.add("person:" + person);
        }
        if (address != null) {
            holders.add("address:" + address);
        }
        Stream stream = new Stream(sink, List.copyOf(holders), tabs);
        streams.add(stream);
        tabs.forEach(tab -> byTab.put(tab, stream));
        synchronized (byHolder) {
            for (String holder : stream.holders) {
                Deque<Stream> mine = byHolder.computeIfAbsent(holder, k -> new ArrayDeque<>());
                mine.addLast(stream);
                while (mine.size() > bound(holder)) {
                    retired.add(mine.pollFirst()); // ended once, however many holders retire it
                }
            }
        }
        queue(stream);
        return stream;
    }

    /**
     * Queues {@code type} for {@code tab} (replacing an unsent message for it); false when no
     * stream carries it.
     */
    boolean tell(String tab, String type) {
        Stream stream = byTab.get(tab);
        return stream != null && tell(stream, tab, type);
    }

    /** Queues {@code type} for {@code tab} on {@code stream}; false when the stream has ended. */
    boolean tell(Stream stream, String tab, String type) {
        if (stream.ended) {
            return false;
        }
        synchronized (stream.pending) {
            stream.pending.put(tab, type);
        }
        queue(stream);
        return true;
    }

    /**
     * {@code tab} is no page any more (its view ended: left, evicted, or its session ended): it is
     * told {@code unknown}, and a stream left with no tab that is still a page is ended after that
     * message, so that neither a logged-out session nor a client that keeps asking holds a stream
     * open.
     */
    void forget(String tab) {
        Stream stream = byTab.get(tab);
        if (stream == null || !tell(stream, tab, "unknown")) {
            return;
        }
        stream.forgotten.add(tab);
        if (stream.forgotten.containsAll(stream.tabs)) {
            emptied.add(stream);
            wake.release();
        }
    }

    private static int bound(String holder) {
        if (holder.startsWith("session:")) {
            return MAX_STREAMS_PER_SESSION;
        }
        return holder.startsWith("person:") ? MAX_STREAMS_PER_PERSON : MAX_STREAMS_PER_ADDRESS;
    }

    private void queue(Stream stream) {
        if (stream.queued.compareAndSet(false, true)) {
            dirty.add(stream);
        }
        wake.release();
    }

    /** How many streams are open. */
    int size() {
        return streams.size();
    }

    /** The writer: runs until {@link #stop()}, then ends every stream it still has. */
    @Override
    public void run() {
        try {
            while (running) {
                long wait =
                        Math.max(
                                1,
                                lastKeepAlive
                                        + (probesDue > 0
                                                ? (PROBES - probesDue + 1) * PROBE_MILLIS
                                                : KEEP_ALIVE_MILLIS)
                                        - clock.millis());
                wake.tryAcquire(wait, TimeUnit.MILLISECONDS);
                wake.drainPermits();
                pass();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            streams.forEach(s -> end(s, false));
        }
    }

    /**
     * A keep-alive to every stream now, with its probes after it, instead of at its time: a client
     * that left is noticed within {@code PROBES * PROBE_MILLIS} of this call rather than up to a
     * second later (a stopping node asks before it ends its streams).
     */
    void keepAliveNow() {
        keepAliveAsked = true;
        wake.release();
    }

    /** Stops the writer (it ends the streams on its way out). */
    void stop() {
        running = false;
        wake.release();
    }

    /**
     * One turn of the writer: what is queued, then once a second a keep-alive to every stream, or
     * the probe that follows the keep-alives.
     */
    void pass() {
        long now = clock.millis();
        for (Stream s = retired.poll(); s != null; s = retired.poll()) {
            end(s, true);
        }
        for (Stream s = failed.poll(); s != null; s = failed.poll()) {
            end(s, true); // its client is gone (end() takes it out of holding)
        }
        for (Stream s = returned.poll(); s != null; s = returned.poll()) {
            holding.remove(s);
            s.lastWrite = now;
            queue(s); // what waited meanwhile goes out now
        }
        for (java.util.Iterator<Stream> i = holding.iterator(); i.hasNext(); ) {
            Stream s = i.next();
            if (now - s.heldSince >= STALL_MILLIS) {
                i.remove();
                LOG.fine(
                        () ->
                                "A live stream whose client took nothing for "
                                        + STALL_MILLIS
                                        + " ms is ended");
                end(s, true); // completed when its held write gives up
            }
        }
        for (Stream s = dirty.poll(); s != null; s = dirty.poll()) {
            s.queued.set(false); // a message told from now on queues it again
            write(s, now, false);
        }
        for (Stream s = emptied.poll(); s != null; s = emptied.poll()) {
            end(s, false); // its tabs are no pages: nothing to hold for them
        }
        if (keepAliveAsked || now - lastKeepAlive >= KEEP_ALIVE_MILLIS) {
            keepAliveAsked = false;
            lastKeepAlive = now;
            probesDue = PROBES;
            for (Stream s :
                    streams) { // every stream, also one that just had news: the news may have been
                // the
                s.probe =
                        true; // first write after its client left, which succeeds, so only the next
                // tells
                write(s, now, true);
            }
        } else if (probesDue > 0
                && now - lastKeepAlive >= (PROBES - probesDue + 1) * PROBE_MILLIS) {
            probesDue--;
            for (Stream s : streams) {
                if (s.probe) {
                    s.probe = probesDue > 0;
                    write(
                            s,
                            s.lastWrite,
                            true); // (keeps its time: a probe is part of that keep-alive)
                }
            }
        }
    }

    private void write(Stream s, long now, boolean keepAlive) {
        if (s.ended || holding.contains(s)) {
            return; // a held write under way: the news waits, coalesced, until it is back
        }
        StringBuilder out = new StringBuilder();
        if (!s.started) {
            s.started = true;
            out.append("retry: ").append(RETRY_MILLIS).append("\n\n");
        }
        synchronized (s.pending) {
            s.pending.forEach(
                    (tab, type) ->
                            out.append("data: {\"tab\":\"")
                                    .append(tab)
                                    .append("\",\"type\":\"")
                                    .append(type)
                                    .append("\"}\n\n"));
            s.pending.clear();
        }
        if (out.isEmpty()) {
            if (!keepAlive) {
                return;
            }
            out.append(":\n\n");
        }
        try {
            if (s.sink.ready()) {
                s.sink.write(out.toString());
                s.lastWrite = now;
            } else {
                hold(s, out.toString(), now);
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINEST, "A live stream's client is gone", e);
            end(s, true);
        }
    }

    /** Hands {@code text} to a thread of its own: a write that may wait for its client. */
    private void hold(Stream s, String text, long now) {
        synchronized (s) {
            s.writing = true;
        }
        s.heldSince = now;
        holding.add(s);
        held.execute(() -> heldWrite(s, text));
    }

    /**
     * A held write, on a thread of its own: the stream's sink is this thread's until it returns.
     */
    private void heldWrite(Stream s, String text) {
        boolean wrote;
        try {
            s.sink.write(text);
            wrote = true;
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINEST, "A live stream's client is gone", e);
            wrote = false;
        }
        boolean endHere;
        synchronized (s) {
            s.writing = false;
            endHere = s.ended; // ended while this write waited: completing it is left to here
        }
        if (endHere) {
            endSink(s);
            return;
        }
        (wrote ? returned : failed).add(s);
        wake.release();
    }

    private void end(Stream s, boolean tellLost) {
        boolean writing;
        synchronized (s) {
            if (s.ended) {
                return;
            }
            s.ended = true;
            writing = s.writing;
        }
        holding.remove(s);
        streams.remove(s);
        synchronized (byHolder) {
            for (String holder : s.holders) {
                Deque<Stream> mine = byHolder.get(holder);
                if (mine != null && mine.remove(s) && mine.isEmpty()) {
                    byHolder.remove(holder);
                }
            }
        }
        List<String> gone = new ArrayList<>();
        for (String tab : s.tabs) {
            if (byTab.remove(
                    tab,
                    s)) { // an older stream that still carries the tab takes its messages again
                streams.stream()
                        .filter(o -> o.tabs.contains(tab))
                        .findAny()
                        .ifPresent(o -> byTab.putIfAbsent(tab, o));
            }
            gone.add(tab);
        }
        if (!writing) {
            endSink(s); // else the held write completes it when it returns
        }
        if (tellLost) {
            try {
                lost.accept(gone);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Could not handle the tabs of a closed stream", e);
            }
        }
    }

    private static void endSink(Stream s) {
        try {
            s.sink.end();
        } catch (RuntimeException e) {
            LOG.log(Level.FINEST, "Ending a stream whose client is gone", e);
        }
    }
}
