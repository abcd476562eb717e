package com.editlock.lock.internal;

import com.editlock.bench.Charts;
import com.editlock.bench.Report;
import com.editlock.launcher.EmbeddedDatabase;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockOwner;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What keeping open tabs' locks alive costs the database: 1,000 / 5,000 / 10,000 open editing tabs
 * (five per session, one lock each), each beating every 5 s as the page does at the default 20 s
 * lease. The baseline renews each beat with its own statement as it arrives (what every node did
 * before the bulk renewal; the statement is the same one, with one beat); Editlock notes the beats
 * in the node's memory and renews them in one statement a second ({@link NodeHeartbeats}).
 * Statements and their execution time are the database's own counts ({@code pg_stat_statements},
 * reset before each window), not the application's.
 */
public final class LivenessBenchmark {

    private static final int[] TABS = {1_000, 5_000, 10_000};
    private static final Duration BEAT = Duration.ofSeconds(5);
    private static final Duration LEASE = Duration.ofSeconds(20);
    private static final int TABS_PER_SESSION = 5;

    private LivenessBenchmark() {}

    private record Tab(String ownerId, String view) {}

    /** One window's counts: statements, their time, all statements the database ran. */
    private record Window(
            double seconds,
            long beats,
            long renewals,
            double renewMillis,
            long statements,
            long late) {

        double perSecond(double n) {
            return n / seconds;
        }
    }

    public static void run(Report report, boolean quick) throws Exception {
        long windowSeconds = quick ? 5 : 20;
        List<List<String>> rows = new ArrayList<>();
        Charts.Series perTabLine = new Charts.Series("a statement per beat (baseline)");
        Charts.Series bulkLine = new Charts.Series("Editlock: one statement per node a second");
        double bulkAtMost = 0;
        try (EmbeddedDatabase db = EmbeddedDatabase.counting()) {
            LockStore store = LockStore.on(db);
            store.execute("create extension if not exists pg_stat_statements");
            JdbcLockManager locks = store.manager(LEASE);
            for (int n : TABS) {
                List<Tab> tabs = open(locks, n);
                Window perTab = perTab(store, locks, tabs, windowSeconds);
                NodeHeartbeats node = store.heartbeats(locks, LEASE);
                List<Long> rounds = Collections.synchronizedList(new ArrayList<>());
                Window bulk = bulk(store, node, tabs, windowSeconds, rounds);
                store.execute("delete from app_lock");
                List<Long> sorted = new ArrayList<>(rounds);
                Collections.sort(sorted);
                double bulkRate = bulk.perSecond(bulk.renewals());
                bulkAtMost = Math.max(bulkAtMost, bulkRate);
                rows.add(
                        List.of(
                                String.format("%,d", n),
                                Report.number(perTab.perSecond(perTab.beats())),
                                Report.number(perTab.perSecond(perTab.renewals())),
                                Report.number(perTab.perSecond(perTab.renewMillis())),
                                String.format("%,d", perTab.late()),
                                Report.number(bulkRate),
                                Report.number(bulk.perSecond(bulk.renewMillis())),
                                sorted.isEmpty()
                                        ? "–"
                                        : String.format(
                                                "%,d / %,d",
                                                sorted.get(sorted.size() / 2),
                                                sorted.get(sorted.size() - 1)),
                                String.format(
                                        "**%.0f×**",
                                        perTab.perSecond(perTab.renewMillis())
                                                / Math.max(
                                                        0.001,
                                                        bulk.perSecond(bulk.renewMillis())))));
                perTabLine.add(n, perTab.perSecond(perTab.renewals()));
                bulkLine.add(n, bulkRate);
            }
        }
        report.target(
                "liveness statements per node per second, 10,000 open tabs (pg_stat_statements)",
                "≤ 1",
                Report.number(bulkAtMost),
                bulkAtMost <= 1.05);
        report.heading("7. Keeping open tabs' locks alive");
        report.text(
                String.format(
                        """
                Open editing tabs, five per session, one lock each, every tab beating every %d s (the page's beat
                at the default %d s lease), for %d s per variant. **Baseline:** each beat renews its tab's lease
                with a statement of its own as it arrives (four threads; what every node did before). **Editlock:**
                the node notes each beat in memory and renews every tab that beat in one statement a second
                (`NodeHeartbeats`; the lease still runs from each beat). Statements and their execution time are
                PostgreSQL's own counts (`pg_stat_statements`, reset before each window); *late* counts baseline
                beats renewed more than a second after they were due. Store level (no HTTP): what the HTTP path
                adds per beat is the same in both.""",
                        BEAT.toSeconds(), LEASE.toSeconds(), windowSeconds));
        report.table(
                List.of(
                        "open tabs",
                        "beats/s",
                        "baseline: statements/s",
                        "baseline: DB ms per s",
                        "baseline: late beats",
                        "Editlock: statements/s",
                        "Editlock: DB ms per s",
                        "Editlock: round p50 / max ms",
                        "DB time, baseline / Editlock"),
                rows);
        report.chart(
                "liveness-statements",
                "Statements per second spent on liveness",
                "open editing tabs",
                "statements per second",
                true,
                List.of(perTabLine, bulkLine));
    }

    /** {@code n} tabs, each holding a lock on a configurator of its own. */
    private static List<Tab> open(JdbcLockManager locks, int n) {
        List<Tab> tabs = new ArrayList<>(n);
        LockOwner owner = null;
        for (int i = 0; i < n; i++) {
            if (i % TABS_PER_SESSION == 0) {
                String id = UUID.randomUUID().toString();
                owner = new LockOwner(id, "bench-" + id.substring(0, 8), "Bench");
            }
            String view = UUID.randomUUID().toString();
            locks.acquire(LockKey.configurator(5_000_000L + i), LockMode.WRITE, owner, view);
            tabs.add(new Tab(owner.ownerId(), view));
        }
        return tabs;
    }

    /** The beats of every tab, spread evenly over each beat interval, for {@code seconds}. */
    private static Window drive(
            LockStore store,
            List<Tab> tabs,
            long seconds,
            int threads,
            Beating beating,
            Runnable alongside)
            throws Exception {
        reset(store);
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        long spacing = BEAT.toNanos() / tabs.size();
        AtomicLong next = new AtomicLong();
        AtomicLong late = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                running.add(
                        pool.submit(
                                () -> {
                                    while (true) {
                                        long k = next.getAndIncrement();
                                        long due = start + k * spacing;
                                        if (due >= end) {
                                            return null;
                                        }
                                        long wait = due - System.nanoTime();
                                        if (wait > 0) {
                                            TimeUnit.NANOSECONDS.sleep(wait);
                                        } else if (-wait > TimeUnit.SECONDS.toNanos(1)) {
                                            late.incrementAndGet();
                                        }
                                        beating.beat(tabs.get((int) (k % tabs.size())));
                                    }
                                }));
            }
            Future<?> side = pool.submit(alongside);
            for (Future<?> f : running) {
                f.get(seconds + 600, TimeUnit.SECONDS);
            }
            side.cancel(true);
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
        }
        double took = (System.nanoTime() - start) / 1e9;
        long beats = Math.min(next.get(), (end - start) / spacing);
        return counts(store, took, beats, late.get());
    }

    private interface Beating {
        void beat(Tab tab) throws Exception;
    }

    private static Window perTab(
            LockStore store, JdbcLockManager locks, List<Tab> tabs, long seconds) throws Exception {
        return drive(
                store, tabs, seconds, 4, tab -> locks.renew(tab.ownerId(), tab.view()), () -> {});
    }

    private static Window bulk(
            LockStore store, NodeHeartbeats node, List<Tab> tabs, long seconds, List<Long> rounds)
            throws Exception {
        return drive(
                store,
                tabs,
                seconds,
                2,
                tab -> node.beat(tab.ownerId(), tab.view()),
                () -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        try {
                            Thread.sleep(node.round().toMillis());
                        } catch (InterruptedException e) {
                            return;
                        }
                        long t0 = System.nanoTime();
                        node.renewNoted();
                        rounds.add((System.nanoTime() - t0) / 1_000_000);
                    }
                });
    }

    private static void reset(LockStore store) throws Exception {
        try (Connection c = store.separateConnection();
                Statement s = c.createStatement()) {
            s.execute("select pg_stat_statements_reset()");
        }
    }

    private static Window counts(LockStore store, double seconds, long beats, long late)
            throws Exception {
        try (Connection c = store.separateConnection();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                """
                        select coalesce(sum(calls) filter (where query like 'with beat as%'), 0),
                               coalesce(sum(total_exec_time) filter (where query like 'with beat as%'), 0),
                               coalesce(sum(calls), 0)
                        from pg_stat_statements where query not like '%pg_stat_statements%'""")) {
            rs.next();
            return new Window(seconds, beats, rs.getLong(1), rs.getDouble(2), rs.getLong(3), late);
        }
    }

    /**
     * This part alone, its table printed (the usual way: {@code mvn -Pbench
     * -Dbench.parts=liveness}).
     */
    public static void main(String[] args) throws Exception {
        Report report = new Report(java.nio.file.Path.of("."));
        run(report, Boolean.getBoolean("bench.quick"));
        System.out.println(report.markdown());
    }
}
