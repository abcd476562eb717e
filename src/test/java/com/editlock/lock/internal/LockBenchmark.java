package com.editlock.lock.internal;

import com.editlock.launcher.EmbeddedDatabase;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockOwner;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;

/**
 * How much the lock protocol costs against the cheapest possible lock, in the same run on the same database:
 * <ul>
 * <li>baseline: one {@code INSERT … ON CONFLICT DO NOTHING} and one {@code DELETE} on a bare table, each
 * autocommitted (no hierarchy, no audit, no expiry: what a naive lock table does);</li>
 * <li>Editlock: {@link JdbcLockManager#acquire} and {@link JdbcLockManager#release}, each in its own transaction as
 * the container runs them (advisory lock per aggregate, lapsed-row cleanup, hierarchy check, grant, audit).</li>
 * </ul>
 * Every client locks its own item's filters inside one of four aggregates, so clients contend on the aggregates'
 * advisory locks as editors of one configurator would. Run with {@code mvn -Pbench}; it prints a table.
 */
public final class LockBenchmark {

    private static final int SECONDS = Integer.getInteger("bench.seconds", 5);
    private static final int[] CLIENTS = {1, 4, 16};

    public static void main(String[] args) throws Exception {
        boolean durable = Boolean.getBoolean("bench.durable");
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("editlock-bench");
        try (EmbeddedDatabase db = durable ? EmbeddedDatabase.durable(dir) : EmbeddedDatabase.throwAway()) {
            LockStore pg = LockStore.on(db);
            try (Connection c = pg.separateConnection()) {
                c.createStatement().execute("create table bench_lock (resource_key varchar(200) primary key,"
                        + " owner_id varchar(64) not null)");
            }
            System.out.printf("%nLock acquire+release pairs per second, %d s per cell, PostgreSQL %s with %s, %d cores"
                    + "%n%n", SECONDS, version(pg), durable ? "fsync=on and synchronous_commit=on (-Dbench.durable=true,"
                    + " as the run command keeps its data)" : "fsync=off and synchronous_commit=off (the test settings)",
                    Runtime.getRuntime().availableProcessors());
            installNotifyTrigger(pg);
            System.out.printf("| clients | baseline pairs/s | Editlock pairs/s | Editlock / baseline |"
                    + " Editlock with a pg_notify trigger | the trigger's cost |%n");
            System.out.printf("|---:|---:|---:|---:|---:|---:|%n");
            JdbcLockManager locks = pg.manager(null, key -> LockKey.configurator(key.id() % 4 + 1));
            for (int clients : CLIENTS) {
                double baseline = run(clients, i -> baselinePair(pg, "item:" + i + ":filters"));
                double editlock = run(clients, i -> editlockPair(locks, i));
                pg.execute("alter table app_lock enable trigger bench_notify");
                double notifying = run(clients, i -> editlockPair(locks, i));
                pg.execute("alter table app_lock disable trigger bench_notify");
                System.out.printf("| %d | %,.0f | %,.0f | %.2f | %,.0f | %.0f %% |%n", clients, baseline, editlock,
                        editlock / baseline, notifying, 100 * (1 - notifying / editlock));
            }
        }
    }

    /**
     * The trigger Editlock had until migration V4 (a {@code pg_notify} on every grant and release), installed
     * disabled, to measure what notifying costs.
     */
    private static void installNotifyTrigger(LockStore pg) {
        pg.execute("create function bench_notify() returns trigger language plpgsql as $$ begin"
                + " perform pg_notify('app_lock', json_build_object('op', lower(tg_op), 'resource',"
                + " coalesce(new.resource_key, old.resource_key))::text); return null; end; $$");
        pg.execute("create trigger bench_notify after insert or delete on app_lock for each row"
                + " execute function bench_notify()");
        pg.execute("alter table app_lock disable trigger bench_notify");
    }

    private interface Pair {
        void run(int client) throws Exception;
    }

    private static double run(int clients, Pair pair) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            for (int i = 0; i < clients; i++) { // warm-up
                int client = i;
                pool.submit((Callable<Void>) () -> {
                    pair.run(client);
                    return null;
                }).get();
            }
            long end = System.nanoTime() + SECONDS * 1_000_000_000L;
            List<Future<Long>> counts = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                int client = i;
                counts.add(pool.submit((Callable<Long>) () -> {
                    long n = 0;
                    while (System.nanoTime() < end) {
                        pair.run(client);
                        n++;
                    }
                    return n;
                }));
            }
            long total = 0;
            for (Future<Long> count : counts) {
                total += count.get();
            }
            return total / (double) SECONDS;
        } finally {
            pool.shutdownNow();
        }
    }

    /** One connection per client thread, opened once: a pool's steady state, without a pool's own costs. */
    private static final ThreadLocal<Connection> CONNECTIONS = new ThreadLocal<>();

    static Connection connection(DataSource ds) throws SQLException {
        Connection c = CONNECTIONS.get();
        if (c == null) {
            c = ds.getConnection();
            CONNECTIONS.set(c);
        }
        return c;
    }

    private static void baselinePair(DataSource ds, String key) throws SQLException {
        Connection c = connection(ds);
        c.setAutoCommit(true);
        try (PreparedStatement take = c.prepareStatement(
                        "insert into bench_lock values (?, ?) on conflict do nothing returning resource_key");
                PreparedStatement free = c.prepareStatement("delete from bench_lock where resource_key = ?")) {
            take.setString(1, key);
            take.setString(2, "owner");
            take.executeQuery().close();
            free.setString(1, key);
            free.executeUpdate();
        }
    }

    private static final ThreadLocal<LockOwner> OWNERS = ThreadLocal.withInitial(
            () -> new LockOwner(UUID.randomUUID().toString(), "bench", "Bench"));

    private static void editlockPair(JdbcLockManager locks, int client) {
        LockStore tx = (LockStore) locks.dataSource;
        LockKey key = LockKey.itemFilters(client + 1);
        tx.inTransaction(() -> locks.acquire(key, LockMode.WRITE, OWNERS.get(), null));
        tx.inTransaction(() -> locks.release(key, OWNERS.get().ownerId(), null));
    }

    private static String version(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); var rs = c.createStatement().executeQuery("show server_version")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
