package com.editlock.lock.internal;

import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockOwner;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.SetParams;

/**
 * The lock operations under JMH, each against its baselines, in forked JVMs that all talk to one
 * PostgreSQL (and one Redis) started by {@link com.editlock.bench.Benchmarks}, which passes their
 * addresses as system properties.
 *
 * <p>Acquire + release pairs (sampled: mean, percentiles, and the throughput that follows from
 * them):
 *
 * <ul>
 *   <li>{@link #ceiling}: {@code INSERT … ON CONFLICT DO NOTHING} and {@code DELETE} on a table
 *       with one index, each autocommitted: two round trips, nothing else. No lock table can be
 *       cheaper.
 *   <li>{@link #advisory}: {@code pg_try_advisory_lock} / {@code pg_advisory_unlock}: two round
 *       trips, no table.
 *   <li>{@link #redis}: {@code SET key owner NX PX}, then {@code SADD} of the key into the owner's
 *       set (the reverse index that lets a session's end find its locks), and a release that
 *       deletes the key only if it is still the owner's and removes it from the set (one script):
 *       three round trips.
 *   <li>{@link #editlock}: {@link JdbcLockManager#acquire} and {@link JdbcLockManager#release}
 *       outside a transaction, as the API calls them: two round trips (the grant is one text of
 *       several statements), each thread in an aggregate of its own; {@link
 *       #editlockFourAggregates}: the threads share four aggregates, so grants inside one aggregate
 *       wait for each other; {@link #editlockNotifying}: with a {@code pg_notify} trigger on the
 *       lock table.
 * </ul>
 *
 * Release everything of one owner ({@link #releaseAllIndexed}, {@link #releaseAllScanning}, {@link
 * #releaseAllRedis}), timed one call at a time, with 50,000 locks of other owners in the table.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 2,
        jvmArgsAppend = {"-Xmx512m", "-XX:+UseParallelGC"})
public class LockOperationsBenchmark {

    /** The database and Redis the parent started. */
    static final String URL = System.getProperty("bench.db.url");

    static final String USER = System.getProperty("bench.db.user");
    static final String PASSWORD = System.getProperty("bench.db.password");
    static final int REDIS_PORT = Integer.getInteger("bench.redis.port", 0);

    /** Threads of one fork number themselves: each gets keys of its own. */
    private static final AtomicInteger NEXT_CLIENT = new AtomicInteger();

    @State(Scope.Benchmark)
    public static class Store {
        LockStore store;
        JdbcLockManager locks;

        /** Every fork starts from the same tables: empty, vacuumed, with their history gone. */
        @Setup(Level.Trial)
        public void open() {
            store = LockStore.at(URL, USER, PASSWORD);
            locks = store.manager(null, LockStore.BY_ID);
            store.execute("truncate app_lock, bench_lock, bench_lock_scan, lock_event");
            store.execute("vacuum analyze app_lock, bench_lock, bench_lock_scan, lock_event");
            store.execute("checkpoint");
        }

        /**
         * Autovacuum is off for the benchmark's tables (it would strike at random moments of random
         * iterations); instead every iteration starts with the dead rows of the last one vacuumed,
         * for every variant alike.
         */
        @Setup(Level.Iteration)
        public void vacuum() {
            store.execute("vacuum app_lock, bench_lock");
        }
    }

    @State(Scope.Thread)
    public static class Client {
        int index;
        LockOwner owner;
        LockKey own;
        LockKey sharing;
        Connection connection;
        PreparedStatement take;
        PreparedStatement free;
        PreparedStatement tryAdvisory;
        PreparedStatement unlockAdvisory;
        Jedis redis;
        String redisKey;
        String redisOwnerSet;
        String redisRelease;

        @Setup(Level.Trial)
        public void open(Store store) throws SQLException {
            index = NEXT_CLIENT.getAndIncrement();
            owner = new LockOwner(UUID.randomUUID().toString(), "bench", "Bench");
            own =
                    LockKey.itemFilters(
                            (1_000L + index) * 100 + 1); // aggregate configurator:(1000 + index)
            sharing =
                    LockKey.itemFilters(
                            (2_000L + index % 4) * 100 + index / 4 + 1); // configurator:2000…2003
            connection = store.store.separateConnection();
            connection.setAutoCommit(true);
            take =
                    connection.prepareStatement(
                            "insert into bench_lock values (?, ?) on conflict do nothing returning resource_key");
            take.setString(1, "ceiling:" + index);
            take.setString(2, owner.ownerId());
            free =
                    connection.prepareStatement(
                            "delete from bench_lock where resource_key = ? and owner_id = ?");
            free.setString(1, "ceiling:" + index);
            free.setString(2, owner.ownerId());
            tryAdvisory = connection.prepareStatement("select pg_try_advisory_lock(?)");
            tryAdvisory.setLong(1, 1_000_000L + index);
            unlockAdvisory = connection.prepareStatement("select pg_advisory_unlock(?)");
            unlockAdvisory.setLong(1, 1_000_000L + index);
            if (REDIS_PORT > 0) {
                redis = new Jedis("127.0.0.1", REDIS_PORT);
                redisKey = "lock:item:" + index + ":filters";
                redisOwnerSet = "owner:" + owner.ownerId();
                redisRelease =
                        redis.scriptLoad(
                                "if redis.call('get', KEYS[1]) == ARGV[1] then"
                                        + " redis.call('del', KEYS[1]) end redis.call('srem', KEYS[2], KEYS[1]) return 1");
            }
        }

        @TearDown(Level.Trial)
        public void close() throws SQLException {
            connection.close();
            if (redis != null) {
                redis.close();
            }
        }
    }

    /**
     * Enables the {@code pg_notify} trigger (installed disabled by the parent) for one benchmark.
     */
    @State(Scope.Benchmark)
    public static class Notifying {
        @Setup(Level.Trial)
        public void enable(Store store) {
            store.store.execute("alter table app_lock enable trigger bench_notify");
        }

        @TearDown(Level.Trial)
        public void disable(Store store) {
            store.store.execute("alter table app_lock disable trigger bench_notify");
        }
    }

    @Benchmark
    public boolean ceiling(Client c) throws SQLException {
        boolean taken;
        try (ResultSet rs = c.take.executeQuery()) {
            taken = rs.next();
        }
        return taken & c.free.executeUpdate() == 1;
    }

    @Benchmark
    public boolean advisory(Client c) throws SQLException {
        boolean taken;
        try (ResultSet rs = c.tryAdvisory.executeQuery()) {
            rs.next();
            taken = rs.getBoolean(1);
        }
        try (ResultSet rs = c.unlockAdvisory.executeQuery()) {
            rs.next();
            return taken & rs.getBoolean(1);
        }
    }

    @Benchmark
    public boolean redis(Client c) {
        if (c.redis == null) {
            throw new IllegalStateException(
                    "No Redis: this benchmark is left out when redis-server is missing");
        }
        boolean taken =
                "OK"
                        .equals(
                                c.redis.set(
                                        c.redisKey,
                                        c.owner.ownerId(),
                                        SetParams.setParams().nx().px(60_000)));
        if (taken) {
            c.redis.sadd(c.redisOwnerSet, c.redisKey);
        }
        c.redis.evalsha(
                c.redisRelease, List.of(c.redisKey, c.redisOwnerSet), List.of(c.owner.ownerId()));
        return taken;
    }

    // ---- the profile: from the ceiling to Editlock, one cost at a time ----

    /**
     * Step 1: the ceiling's two statements on the real lock table: its row, its seven indexes, its
     * sequence.
     */
    static final String ROW_TAKE =
            "insert into app_lock (resource_key, aggregate_key, mode, owner_id, user_login,"
                    + " display_name, expires_at) values (?, ?, 'WRITE', ?, 'bench', 'Bench', statement_timestamp()"
                    + " + interval '20 seconds') on conflict do nothing returning "
                    + LockStatements.COLUMNS;

    static final String ROW_FREE =
            "delete from app_lock where resource_key = ? and owner_id = ? returning "
                    + LockStatements.COLUMNS;

    /** Step 2: the same with an audit row per grant and per release, in the same statement. */
    static final String AUDITED_TAKE =
            "with granted as ("
                    + ROW_TAKE.replace(LockStatements.COLUMNS, "*")
                    + "),"
                    + " audited as (insert into lock_event (event_type, resource_key, aggregate_key, mode, owner_id,"
                    + " user_login, display_name, fencing_token) select 'ACQUIRED', resource_key, aggregate_key, mode,"
                    + " owner_id, user_login, display_name, fencing_token from granted) select "
                    + LockStatements.COLUMNS
                    + " from granted";

    @Benchmark
    public int profileLockRow(Client c) throws SQLException {
        return pairOf(c, ROW_TAKE, ROW_FREE, false);
    }

    @Benchmark
    public int profileAudited(Client c) throws SQLException {
        return pairOf(c, AUDITED_TAKE, LockStatements.RELEASE, true);
    }

    private static int pairOf(Client c, String take, String free, boolean audited)
            throws SQLException {
        String key = c.own.toString();
        String aggregate = "configurator:" + (1_000 + c.index);
        int n = 0;
        try (PreparedStatement ps =
                        LockRows.bind(
                                c.connection.prepareStatement(take),
                                key,
                                aggregate,
                                c.owner.ownerId());
                ResultSet rs = ps.executeQuery()) {
            n += LockRows.locks(rs).size();
        }
        Object[] params =
                audited
                        ? new Object[] {key, c.owner.ownerId(), null, null, "RELEASED", null, null}
                        : new Object[] {key, c.owner.ownerId()};
        try (PreparedStatement ps = LockRows.bind(c.connection.prepareStatement(free), params);
                ResultSet rs = ps.executeQuery()) {
            n += LockRows.locks(rs).size();
        }
        if (n != 2) {
            throw new IllegalStateException(
                    "a profile pair took and freed " + n + " rows instead of 2");
        }
        return n;
    }

    @Benchmark
    public boolean editlock(Store s, Client c) {
        s.locks.acquire(c.own, LockMode.WRITE, c.owner, null);
        return s.locks.release(c.own, c.owner.ownerId(), null);
    }

    @Benchmark
    public boolean editlockFourAggregates(Store s, Client c) {
        s.locks.acquire(c.sharing, LockMode.WRITE, c.owner, null);
        return s.locks.release(c.sharing, c.owner.ownerId(), null);
    }

    @Benchmark
    public boolean editlockNotifying(Store s, Client c, Notifying on) {
        s.locks.acquire(c.own, LockMode.WRITE, c.owner, null);
        return s.locks.release(c.own, c.owner.ownerId(), null);
    }

    // ---- release everything of one owner ----

    /**
     * 50,000 locks of 5,000 other owners, in the lock table and in its copy without the owner
     * index.
     */
    @State(Scope.Benchmark)
    public static class Busy {
        @Setup(Level.Trial)
        public void fill(Store store) {
            for (String table : List.of("app_lock", "bench_lock_scan")) {
                store.store.execute(
                        "insert into "
                                + table
                                + " (resource_key, aggregate_key, mode, owner_id,"
                                + " user_login, display_name, expires_at) select 'item:' || (50000000 + g) || ':filters',"
                                + " 'configurator:' || (500000 + g / 100), 'WRITE', 'other-' || (g % 5000), 'other', 'Other',"
                                + " statement_timestamp() + interval '1 hour' from generate_series(1, 50000) g");
            }
            store.store.execute("analyze app_lock");
            store.store.execute("analyze bench_lock_scan");
        }

        @TearDown(Level.Trial)
        public void empty(Store store) {
            store.store.execute("delete from app_lock");
            store.store.execute("delete from bench_lock_scan");
        }
    }

    /** One owner holding {@link #locks} locks, set up anew (untimed) before every timed release. */
    @State(Scope.Thread)
    public static class Holder {
        @Param({"10", "100", "1000", "10000"})
        int locks;

        String ownerId;
        List<String> redisKeys;

        @Setup(Level.Invocation)
        public void hold(Store store, Client client) {
            ownerId = UUID.randomUUID().toString();
            for (String table : List.of("app_lock", "bench_lock_scan")) {
                store.store.execute(
                        "insert into "
                                + table
                                + " (resource_key, aggregate_key, mode, owner_id,"
                                + " user_login, display_name, expires_at) select 'item:' || (90000000 + g) || ':filters',"
                                + " 'configurator:' || (900000 + g / 100), 'WRITE', ?, 'bench', 'Bench',"
                                + " statement_timestamp() + interval '1 hour' from generate_series(1, ?) g",
                        ownerId,
                        locks);
            }
            if (client.redis != null) {
                redisKeys = new ArrayList<>(locks);
                var pipe = client.redis.pipelined();
                for (int i = 0; i < locks; i++) {
                    String key = "lock:item:" + (90_000_000 + i) + ":filters";
                    redisKeys.add(key);
                    pipe.set(key, ownerId, SetParams.setParams().nx().px(3_600_000));
                    pipe.sadd("owner:" + ownerId, key);
                }
                pipe.sync();
            }
        }

        int released(int count) {
            if (count != locks) {
                throw new IllegalStateException("released " + count + " of " + locks + " locks");
            }
            return count;
        }

        /** Removes what the variant under measurement left in the other stores. */
        @TearDown(Level.Invocation)
        public void empty(Store store, Client client) {
            store.store.execute("delete from bench_lock_scan where owner_id = ?", ownerId);
            store.store.execute("delete from app_lock where owner_id = ?", ownerId);
            if (client.redis != null) {
                client.redis.del(redisKeys.toArray(String[]::new));
                client.redis.del("owner:" + ownerId);
            }
        }
    }

    /**
     * The lock table's release-all statement on a copy of the table that has no index on the owner.
     */
    static final String RELEASE_ALL_SCANNING =
            LockStatements.RELEASE_ALL.replace("app_lock", "bench_lock_scan");

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @Warmup(iterations = 5, batchSize = 1)
    @Measurement(iterations = 20, batchSize = 1)
    public int releaseAllIndexed(Store s, Busy busy, Holder h) {
        return h.released(s.locks.releaseAll(h.ownerId).size());
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @Warmup(iterations = 5, batchSize = 1)
    @Measurement(iterations = 20, batchSize = 1)
    public int releaseAllScanning(Store s, Busy busy, Holder h) throws SQLException {
        int released;
        try (Connection c = s.store.getConnection();
                PreparedStatement ps =
                        LockRows.bind(
                                c.prepareStatement(RELEASE_ALL_SCANNING),
                                h.ownerId,
                                "SESSION_ENDED",
                                null,
                                null);
                ResultSet rs = ps.executeQuery()) {
            released = LockRows.locks(rs).size();
        }
        return h.released(released);
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @Warmup(iterations = 5, batchSize = 1)
    @Measurement(iterations = 20, batchSize = 1)
    public long releaseAllRedis(Store s, Busy busy, Client c, Holder h) {
        if (c.redis == null) {
            throw new IllegalStateException(
                    "No Redis: this benchmark is left out when redis-server is missing");
        }
        var keys = c.redis.smembers("owner:" + h.ownerId);
        List<String> all = new ArrayList<>(keys);
        all.add("owner:" + h.ownerId);
        return h.released((int) c.redis.del(all.toArray(String[]::new)) - 1);
    }
}
