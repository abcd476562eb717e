package com.editlock.lock.internal;

import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockOwner;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The sweep of a backlog of lapsed locks (after an outage, say) while editors keep working: {@value
 * #CLIENTS} threads acquire and release locks of their own (each in its own aggregate) for the
 * whole run; their acquisitions are timed first without a sweep, then while one sweep deletes the
 * backlog in its batches. Each size is run {@code rounds} times; the sweep's times are reported as
 * the median and the range, the acquisitions' percentiles pooled.
 */
public final class SweepBenchmark {

    static final int CLIENTS = 8;

    /** One size's figures. */
    public record Result(
            int lapsed,
            int rounds,
            List<Long> sweepMillis,
            long[] quietMicros,
            long[] sweepingMicros) {

        public long sweepMedianMillis() {
            List<Long> sorted = new ArrayList<>(sweepMillis);
            Collections.sort(sorted);
            return sorted.get(sorted.size() / 2);
        }

        public double quiet(double quantile) {
            return at(quietMicros, quantile);
        }

        public double sweeping(double quantile) {
            return at(sweepingMicros, quantile);
        }

        private static double at(long[] sorted, double quantile) {
            return sorted[
                    Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)];
        }
    }

    private SweepBenchmark() {}

    public static Result run(LockStore store, int lapsed, int rounds, long quietMillis)
            throws Exception {
        JdbcLockManager locks = store.manager(null, LockStore.BY_ID);
        List<Long> sweeps = new ArrayList<>();
        ConcurrentLinkedQueue<Long> quiet = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> sweeping = new ConcurrentLinkedQueue<>();
        for (int round = 0; round < rounds; round++) {
            store.execute(
                    "insert into app_lock (resource_key, aggregate_key, mode, owner_id, user_login, display_name,"
                            + " expires_at) select 'item:' || (70000000 + g) || ':filters', 'configurator:' || (700000 + g / 100),"
                            + " 'WRITE', 'gone-' || (g % 1000), 'gone', 'Gone', statement_timestamp() - interval '1 minute'"
                            + " from generate_series(1, ?) g",
                    lapsed);
            store.execute("analyze app_lock");
            Phase phase = new Phase();
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            try {
                List<Future<?>> clients = new ArrayList<>();
                for (int i = 0; i < CLIENTS; i++) {
                    LockKey key = LockKey.itemFilters((3_000L + i) * 100 + 1);
                    LockOwner owner = new LockOwner(UUID.randomUUID().toString(), "bench", "Bench");
                    clients.add(
                            pool.submit(
                                    () -> {
                                        while (!phase.over) {
                                            long start = System.nanoTime();
                                            locks.acquire(key, LockMode.WRITE, owner, null);
                                            long micros = (System.nanoTime() - start) / 1000;
                                            int now = phase.now;
                                            if (now == Phase.QUIET) {
                                                quiet.add(micros);
                                            } else if (now == Phase.SWEEPING) {
                                                sweeping.add(micros);
                                            }
                                            locks.release(key, owner.ownerId(), null);
                                        }
                                        return null;
                                    }));
                }
                TimeUnit.MILLISECONDS.sleep(500); // warm-up: connections open, plans cached
                phase.now = Phase.QUIET;
                TimeUnit.MILLISECONDS.sleep(
                        quietMillis); // a measurement window, not a wait for something
                phase.now = Phase.SWEEPING;
                long start = System.nanoTime();
                int swept = locks.sweepExpired().size();
                sweeps.add((System.nanoTime() - start) / 1_000_000);
                phase.now = Phase.AFTER;
                phase.over = true;
                for (Future<?> client : clients) {
                    client.get(30, TimeUnit.SECONDS);
                }
                if (swept < lapsed) {
                    throw new IllegalStateException(
                            "the sweep removed " + swept + " of " + lapsed + " lapsed locks");
                }
            } finally {
                pool.shutdownNow();
            }
        }
        return new Result(lapsed, rounds, sweeps, sorted(quiet), sorted(sweeping));
    }

    private static long[] sorted(ConcurrentLinkedQueue<Long> values) {
        long[] a = values.stream().mapToLong(Long::longValue).toArray();
        java.util.Arrays.sort(a);
        if (a.length == 0) {
            throw new IllegalStateException("no acquisition was timed in a phase");
        }
        return a;
    }

    private static final class Phase {
        static final int WARMING = 0;
        static final int QUIET = 1;
        static final int SWEEPING = 2;
        static final int AFTER = 3;
        volatile int now = WARMING;
        volatile boolean over;
    }
}
