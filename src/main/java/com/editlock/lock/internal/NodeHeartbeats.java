package com.editlock.lock.internal;

import com.editlock.lock.Beat;
import com.editlock.lock.Heartbeats;
import com.editlock.platform.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * This node's heartbeats: each one is noted in memory (the tab's latest beat wins) and a thread
 * renews the leases of every tab that beat since its last round in one statement per round, a round
 * every second (a quarter lease when the lease is shorter). A tab's lease runs from its own beat
 * ({@link Beat#ago()}), so a beat that waits for the round loses no time and gains none.
 *
 * <p>What stays as it was: a tab that stops beating is not renewed by any later round; a tab that
 * closed or released between its beat and the round has no row left to renew; a lapsed row still
 * there is revived only as a heartbeat always could ({@code RENEWED_AFTER_LAPSE}); a node that dies
 * renews nothing more, so its tabs' locks lapse within the lease and the sweep. Memory is bounded:
 * beyond {@link #maxNoted} tabs waiting for the round, a beat renews at once as it used to.
 */
@ApplicationScoped
public class NodeHeartbeats implements Heartbeats {

    private static final Logger LOG = Logger.getLogger(NodeHeartbeats.class.getName());

    private static final Metadata REQUESTS =
            Metadata.builder()
                    .withName("heartbeat_requests")
                    .withDescription(
                            "Heartbeat requests this node answered (one per browser per beat)")
                    .build();

    private static final Metadata TABS =
            Metadata.builder()
                    .withName("heartbeat_tabs")
                    .withDescription(
                            "Tabs those heartbeats kept alive (a request names all its tabs)")
                    .build();

    /** The longest a beat waits for its round. */
    static final Duration ROUND = Duration.ofSeconds(1);

    /** Tabs noted at most before a beat is renewed on the spot (a test may lower it). */
    int maxNoted = 50_000;

    /**
     * Beats per statement: one statement renews a round's beats up to this many (a test may lower
     * it). As many as may wait for a round, so that a round is one statement at any tab count: at
     * 10,000 a round of 20,000 tabs beating every 2 s was sometimes two (1.2 statements a second).
     */
    int batchSize = maxNoted;

    /** A tab that beats, and its latest beat: by this node's monotonic clock and by the wall's. */
    private record Tab(String ownerId, String view) {}

    private record Noted(long nanos, Instant at) {}

    /** What a round renewed for one tab's beat: the beat, when it was noted, how many locks. */
    public record Renewal(Beat beat, Instant noted, int renewed) {}

    private final Map<Tab, Noted> noted = new ConcurrentHashMap<>();

    @Inject JdbcLockManager locks;

    @Inject Settings settings;

    @Resource ManagedThreadFactory threads;

    /** Absent outside the container (the contract suite). */
    @Inject MetricRegistry metrics;

    /** The lease, when a test sets its own. */
    Duration lease;

    /** This node's monotonic clock, in nanoseconds (a test may turn it). */
    LongSupplier clock = System::nanoTime;

    private volatile boolean running = true;
    private Thread renewer;

    @PostConstruct
    void start() {
        if (threads == null) {
            return; // outside the container: the caller runs the rounds
        }
        renewer = threads.newThread(this::renewForever);
        renewer.setName("editlock-lease-renewer");
        renewer.setDaemon(true);
        renewer.start();
    }

    /**
     * Stops the rounds, after a last one: a beat this node answered before it stopped still renews
     * its lease (with sessions in the data grid the user goes on at another node, and a beat
     * answered {@code 204} and then dropped would let the lease lapse under a live page).
     */
    @PreDestroy
    void stop() {
        running = false;
        if (renewer != null) {
            // Not interrupted: a round under way finishes (an interrupted one would lose its
            // beats).
            try {
                renewer.join(round().plusSeconds(5).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            renewer.interrupt();
        }
        if (noted.isEmpty()) {
            return;
        }
        try {
            renewNoted();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "The last renewal round of this node failed", e);
        }
    }

    /**
     * Counts the request and its tabs on {@code /metrics}: {@code heartbeat_requests_total} against
     * {@code heartbeat_tabs_total} shows whether browsers send one beat for all their tabs.
     */
    @Override
    public void beatTabs(String ownerId, List<String> views) {
        if (metrics != null) {
            metrics.counter(REQUESTS).inc();
            metrics.counter(TABS).inc(Math.max(1, views.size()));
        }
        Heartbeats.super.beatTabs(ownerId, views);
    }

    @Override
    public void beat(String ownerId, String view) {
        Tab tab = new Tab(ownerId, view);
        if (noted.size() >= maxNoted && !noted.containsKey(tab)) {
            locks.renew(List.of(Beat.now(ownerId, view)));
            return;
        }
        noted.put(tab, new Noted(clock.getAsLong(), Instant.now()));
    }

    /** Tabs whose beat waits for the next round. */
    public int waiting() {
        return noted.size();
    }

    /** The time between rounds: a second, or a quarter lease if that is shorter. */
    public Duration round() {
        Duration quarter = lease().dividedBy(4);
        return quarter.compareTo(ROUND) < 0 ? quarter : ROUND;
    }

    /**
     * One round: renews every tab that beat since the last round, in statements of up to {@link
     * #batchSize} beats. A beat older than the lease (the round was held up that long) earns
     * nothing and renews nothing. Returns what each beat renewed.
     */
    public List<Renewal> renewNoted() {
        long now = clock.getAsLong();
        Duration lease = lease();
        List<Map.Entry<Tab, Noted>> taken = new ArrayList<>();
        for (Map.Entry<Tab, Noted> e : noted.entrySet()) {
            if (noted.remove(e.getKey(), e.getValue())) {
                taken.add(e);
            }
        }
        List<Renewal> done = new ArrayList<>(taken.size());
        List<Renewal> batch = new ArrayList<>(); // each beat's renewal, its count still unknown
        for (Map.Entry<Tab, Noted> e : taken) {
            Duration ago = Duration.ofNanos(Math.max(0, now - e.getValue().nanos()));
            Beat beat = new Beat(e.getKey().ownerId(), e.getKey().view(), ago);
            if (ago.compareTo(lease) >= 0) {
                done.add(new Renewal(beat, e.getValue().at(), 0));
                continue;
            }
            batch.add(new Renewal(beat, e.getValue().at(), 0));
            if (batch.size() == batchSize) {
                renew(batch, done);
            }
        }
        if (!batch.isEmpty()) {
            renew(batch, done);
        }
        return done;
    }

    private void renew(List<Renewal> batch, List<Renewal> done) {
        int[] renewed = locks.renew(batch.stream().map(Renewal::beat).toList());
        for (int i = 0; i < batch.size(); i++) {
            done.add(new Renewal(batch.get(i).beat(), batch.get(i).noted(), renewed[i]));
        }
        batch.clear();
    }

    private void renewForever() {
        while (running) {
            try {
                Thread.sleep(round().toMillis());
                renewNoted();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // The beats of this round are lost; the next beats renew. A database that stays
                // away lets the leases lapse, as it must.
                LOG.log(Level.WARNING, "Renewing this node's leases failed; trying again", e);
            }
        }
    }

    private Duration lease() {
        return lease != null ? lease : Duration.ofSeconds(settings.leaseSeconds());
    }
}
