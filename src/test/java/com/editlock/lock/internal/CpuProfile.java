package com.editlock.lock.internal;

import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockOwner;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Where an acquire + release pair spends its CPU: the same steps as the benchmark's profile
 * (ceiling, lock row, audited, Editlock), each run by {@code threads} threads for a few seconds,
 * with the CPU time of the database's processes (from {@code /proc}, Linux only) and of the client
 * threads divided by the pairs done. On a machine whose cores are all busy, throughput is cores /
 * CPU per pair: this is why a ratio at many threads is what it is.
 */
public final class CpuProfile {

    /**
     * One step's figures: pairs per second, and CPU microseconds per pair in the database and in
     * the client.
     */
    public record Step(
            String name,
            int threads,
            double pairsPerSecond,
            double serverMicros,
            double clientMicros) {}

    private interface Pair {
        void run(int client, Connection c) throws Exception;
    }

    private CpuProfile() {}

    public static boolean available() {
        return Files.isReadable(Path.of("/proc/self/stat"));
    }

    public static List<Step> run(LockStore store, int threads, long millis) throws Exception {
        JdbcLockManager locks = store.manager(null, LockStore.BY_ID);
        Map<String, Pair> steps = new LinkedHashMap<>();
        steps.put(
                "ceiling",
                (i, c) -> {
                    statement(
                            c,
                            "insert into bench_lock values (?, ?) on conflict do nothing returning resource_key",
                            "cpu:" + i,
                            "owner");
                    statement(
                            c,
                            "delete from bench_lock where resource_key = ? returning resource_key",
                            "cpu:" + i);
                });
        steps.put(
                "lock row",
                (i, c) -> {
                    statement(
                            c,
                            LockOperationsBenchmark.ROW_TAKE,
                            key(i).toString(),
                            "configurator:" + (4_000 + i),
                            "o" + i);
                    statement(c, LockOperationsBenchmark.ROW_FREE, key(i).toString(), "o" + i);
                });
        steps.put(
                "audited",
                (i, c) -> {
                    statement(
                            c,
                            LockOperationsBenchmark.AUDITED_TAKE,
                            key(i).toString(),
                            "configurator:" + (4_000 + i),
                            "o" + i);
                    statement(
                            c,
                            LockStatements.RELEASE,
                            key(i).toString(),
                            "o" + i,
                            null,
                            null,
                            "RELEASED",
                            null,
                            null);
                });
        Map<Integer, LockOwner> owners = new java.util.concurrent.ConcurrentHashMap<>();
        steps.put(
                "Editlock",
                (i, c) -> {
                    LockOwner owner =
                            owners.computeIfAbsent(
                                    i, k -> new LockOwner(UUID.randomUUID().toString(), "b", "B"));
                    locks.acquire(key(i), LockMode.WRITE, owner, null);
                    locks.release(key(i), owner.ownerId(), null);
                });
        List<Step> figures = new ArrayList<>();
        for (var step : steps.entrySet()) {
            store.execute("vacuum app_lock, bench_lock");
            figures.add(measure(store, step.getKey(), step.getValue(), threads, millis));
        }
        return figures;
    }

    private static LockKey key(int client) {
        return LockKey.itemFilters((4_000L + client) * 100 + 1);
    }

    private static void statement(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = LockRows.bind(c.prepareStatement(sql), params);
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new IllegalStateException(
                        "no row from " + sql.lines().findFirst().orElse(sql));
            }
        }
    }

    private static Step measure(LockStore store, String name, Pair pair, int threads, long millis)
            throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            long warmEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_500);
            List<List<Long>> postgres = new ArrayList<>();
            long[] serverStart = new long[1];
            long[] wallStart = new long[1];
            long[] end = new long[1];
            // After the warm-up every connection is open: the database's processes are counted from
            // here.
            var gate =
                    new java.util.concurrent.CyclicBarrier(
                            threads,
                            () -> {
                                postgres.add(postgresProcesses(store));
                                serverStart[0] = cpuTicks(postgres.get(0));
                                wallStart[0] = System.nanoTime();
                                end[0] = wallStart[0] + TimeUnit.MILLISECONDS.toNanos(millis);
                            });
            List<Future<long[]>> clients = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int client = t;
                clients.add(
                        pool.submit(
                                () -> {
                                    try (Connection c = store.separateConnection()) {
                                        while (System.nanoTime() < warmEnd) {
                                            pair.run(client, c);
                                        }
                                        gate.await();
                                        long cpu = mx.getCurrentThreadCpuTime();
                                        long pairs = 0;
                                        while (System.nanoTime() < end[0]) {
                                            pair.run(client, c);
                                            pairs++;
                                        }
                                        return new long[] {
                                            pairs, mx.getCurrentThreadCpuTime() - cpu
                                        };
                                    }
                                }));
            }
            long pairs = 0;
            long clientNanos = 0;
            for (Future<long[]> f : clients) {
                long[] r = f.get(millis + 60_000, TimeUnit.MILLISECONDS);
                pairs += r[0];
                clientNanos += r[1];
            }
            double wallSeconds = (System.nanoTime() - wallStart[0]) / 1e9;
            long serverTicks = cpuTicks(postgres.get(0)) - serverStart[0];
            double tickMicros = 1e6 / 100; // USER_HZ is 100 on Linux
            return new Step(
                    name,
                    threads,
                    pairs / wallSeconds,
                    serverTicks * tickMicros / pairs,
                    clientNanos / 1000.0 / pairs);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The postmaster and every process it started (backends, background workers). */
    private static List<Long> postgresProcesses(LockStore store) {
        ProcessHandle postmaster;
        try (Connection c = store.separateConnection();
                ResultSet rs = c.createStatement().executeQuery("select pg_backend_pid()")) {
            rs.next();
            postmaster =
                    ProcessHandle.of(rs.getLong(1)).flatMap(ProcessHandle::parent).orElseThrow();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        List<Long> pids = new ArrayList<>(List.of(postmaster.pid()));
        postmaster.descendants().forEach(p -> pids.add(p.pid()));
        return pids;
    }

    /**
     * utime + stime of the processes still alive, plus what their exited children used, in clock
     * ticks.
     */
    private static long cpuTicks(List<Long> pids) {
        long ticks = 0;
        for (long pid : pids) {
            try {
                String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                // fields 14-17 of stat (utime, stime, cutime, cstime) are 11-14 after the command
                ticks +=
                        Long.parseLong(f[11])
                                + Long.parseLong(f[12])
                                + Long.parseLong(f[13])
                                + Long.parseLong(f[14]);
            } catch (IOException | RuntimeException gone) {
                // a backend that ended meanwhile: its time is in the postmaster's cutime once
                // reaped
            }
        }
        return ticks;
    }
}
