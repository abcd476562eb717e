package com.editlock.lock.internal;

import com.editlock.lock.HandoverRefusedException;
import com.editlock.lock.HandoverRequest;
import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LockUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Interleavings a random schedule would rarely produce, forced step by step against a store (clean,
 * or with a bug planted), with every call recorded as the torture records it; the torture's checker
 * then judges the history. On the clean store each leaves nothing to report ({@code
 * PlantedBugsTest}); with its bug planted, the checker alone must find it.
 */
enum ForcedRace {

    /** Omar asks Sara to hand her lock over, and she agrees: it is his, with nothing between. */
    HAND_OVER_AGREED {
        @Override
        void run(Script s) {
            s.acquire(s.sara, "tab-1", s.whole, LockMode.WRITE);
            s.handOver(() -> {});
        }
    },

    /**
     * Sara and Omar both read the record; Omar takes it over: Sara's lock ends, his own becomes the
     * WRITE lock (it is not his to lose).
     */
    SHARED_RECORD_TAKEN_OVER {
        @Override
        void run(Script s) {
            s.acquire(s.sara, "tab-1", s.whole, LockMode.READ);
            s.acquire(s.omar, "tab-9", s.whole, LockMode.READ);
            Instant before = Instant.now();
            Lock taken =
                    s.store.asDeclared(
                            "takeOver",
                            () ->
                                    s.locks.takeOver(
                                            s.whole, s.omar, "tab-9", s.omar.login(), "race"));
            s.seen.tookOver(
                    s.omar.ownerId(),
                    "tab-9",
                    s.whole,
                    before,
                    Instant.now(),
                    TortureChecker.Outcome.DONE,
                    taken);
        }
    },

    /** Sara and Omar both read the record; an admin force-releases it: both locks end. */
    SHARED_RECORD_FORCE_RELEASED {
        @Override
        void run(Script s) {
            s.acquire(s.sara, "tab-1", s.whole, LockMode.READ);
            s.acquire(s.omar, "tab-9", s.whole, LockMode.READ);
            Instant before = Instant.now();
            List<Lock> gone =
                    s.store.asDeclared(
                            "forceRelease", () -> s.admin.forceRelease(s.whole, "ada", "race"));
            s.seen.forced(s.whole, before, Instant.now(), gone);
        }
    },

    /**
     * Omar asks Sara to hand her lock over; before she answers she finishes and opens the record
     * again (a new grant, a new token); then she agrees. The request was for the grant Omar saw: it
     * has ended, so nothing may be handed over.
     */
    HAND_OVER_AFTER_A_NEW_GRANT {
        @Override
        void run(Script s) {
            s.acquire(s.sara, "tab-1", s.whole, LockMode.WRITE);
            s.handOver(
                    () -> {
                        s.release(s.sara, "tab-1", s.whole);
                        s.acquire(s.sara, "tab-1", s.whole, LockMode.WRITE);
                    });
        }
    },

    /**
     * Sara's lease lapses after Omar's acquisition cleaned up the record's lapsed rows and before
     * his grant: her row is still there, so it still blocks (rule 1) until a clean-up deletes it
     * with its EXPIRED line. Forced: Ada's lapsed lock on a part is held by another transaction (a
     * heartbeat renewing it, say), so Omar's clean-up waits for it while Sara's lease runs out.
     */
    LEASE_LAPSES_BETWEEN_CLEAN_UP_AND_GRANT {
        @Override
        void run(Script s) throws Exception {
            Lock adas = s.acquire(s.ada, "tab-5", s.part, LockMode.READ);
            s.until(
                    "half a lease after Ada's grant",
                    "select count(*) from app_lock where fencing_token = ?"
                            + " and acquired_at + interval '500 milliseconds' <= clock_timestamp()",
                    adas.fencingToken());
            Lock saras = s.acquire(s.sara, "tab-1", s.whole, LockMode.READ);
            s.until(
                    "Ada's lease has lapsed",
                    "select count(*) from app_lock where fencing_token = ?"
                            + " and expires_at <= clock_timestamp()",
                    adas.fencingToken());
            try (Connection holding = s.store.separateConnection()) {
                holding.setAutoCommit(false);
                long holder;
                try (Statement st = holding.createStatement();
                        ResultSet rs =
                                st.executeQuery(
                                        "select pg_backend_pid() from app_lock where fencing_token = "
                                                + adas.fencingToken()
                                                + " for update")) {
                    if (!rs.next()) {
                        throw new IllegalStateException("Ada's row is gone before the race");
                    }
                    holder = rs.getLong(1);
                }
                Instant omarStarts = Instant.now();
                if (!omarStarts.isBefore(saras.expiresAt().minusMillis(100))) {
                    throw new IllegalStateException(
                            "the race never formed: Sara's lease ran out before Omar began");
                }
                Future<Lock> omars =
                        s.pool.submit(() -> s.acquire(s.omar, "tab-9", s.whole, LockMode.WRITE));
                s.until(
                        "Omar's clean-up waits for Ada's row and Sara's lease has lapsed",
                        () ->
                                s.number(
                                                        "select count(*) from pg_stat_activity"
                                                                + " where ? = any(pg_blocking_pids(pid))",
                                                        holder)
                                                > 0
                                        && s.number(
                                                        "select count(*) from app_lock where fencing_token = ?"
                                                                + " and expires_at <= clock_timestamp()",
                                                        saras.fencingToken())
                                                > 0);
                holding.commit();
                omars.get(30, TimeUnit.SECONDS);
            }
        }
    },

    /**
     * An admin force-releases Sara's lock after her save's fencing check and before its write: the
     * check locked her row, so the release waits for the save to commit; the save never writes
     * after her lock ended.
     */
    FORCE_RELEASE_DURING_A_SAVE {
        @Override
        void run(Script s) throws Exception {
            Lock saras = s.acquire(s.sara, "tab-1", s.whole, LockMode.WRITE);
            Instant before = Instant.now();
            Instant[] forceWindow = new Instant[2];
            var force = new java.util.concurrent.atomic.AtomicReference<Future<List<Lock>>>();
            Instant[] at =
                    s.store.inTransaction(
                            () -> {
                                s.locks.verify(s.whole, s.sara.ownerId(), saras.fencingToken());
                                long me;
                                try (Connection c = s.store.getConnection();
                                        ResultSet rs =
                                                c.createStatement()
                                                        .executeQuery("select pg_backend_pid()")) {
                                    rs.next();
                                    me = rs.getLong(1);
                                }
                                forceWindow[0] = Instant.now();
                                force.set(
                                        s.pool.submit(
                                                () -> {
                                                    try {
                                                        return s.store.asDeclared(
                                                                "forceRelease",
                                                                () ->
                                                                        s.admin.forceRelease(
                                                                                s.whole, "ada",
                                                                                "race"));
                                                    } finally {
                                                        forceWindow[1] = Instant.now();
                                                    }
                                                }));
                                // The admin's release either finished or waits for this save.
                                s.until(
                                        "the force release waits for the save or is done",
                                        () ->
                                                force.get().isDone()
                                                        || s.number(
                                                                        "select count(*) from pg_stat_activity"
                                                                                + " where ? = any(pg_blocking_pids(pid))",
                                                                        me)
                                                                > 0);
                                if (force.get().isDone()) { // its end line, then the write
                                    s.until(
                                            "the write comes well after the release",
                                            "select count(*) from lock_event where fencing_token = ?"
                                                    + " and event_type = 'FORCE_RELEASED'"
                                                    + " and occurred_at + interval '20 milliseconds'"
                                                    + " < clock_timestamp()",
                                            saras.fencingToken());
                                }
                                try (Connection c = s.store.getConnection();
                                        PreparedStatement ps =
                                                c.prepareStatement(
                                                        "insert into torture_save (resource_key, fencing_token,"
                                                                + " owner_id, saved_at) values (?, ?, ?,"
                                                                + " transaction_timestamp()) returning saved_at,"
                                                                + " clock_timestamp()")) {
                                    ps.setString(1, s.whole.toString());
                                    ps.setLong(2, saras.fencingToken());
                                    ps.setString(3, s.sara.ownerId());
                                    try (ResultSet rs = ps.executeQuery()) {
                                        rs.next();
                                        return new Instant[] {
                                            rs.getTimestamp(1).toInstant(),
                                            rs.getTimestamp(2).toInstant()
                                        };
                                    }
                                }
                            });
            s.seen.saveCall(
                    s.sara.ownerId(),
                    s.whole,
                    saras.fencingToken(),
                    before,
                    Instant.now(),
                    at[0],
                    at[1]);
            List<Lock> gone = force.get().get(30, TimeUnit.SECONDS);
            s.seen.forced(s.whole, forceWindow[0], forceWindow[1], gone);
        }
    };

    /** The race's steps; every call is recorded in {@code s.seen}. */
    abstract void run(Script s) throws Exception;

    private static final AtomicLong NEXT_AGGREGATE =
            new AtomicLong(6_000_000 + ThreadLocalRandom.current().nextLong(1_000_000) * 10);

    static final Duration LEASE = Duration.ofSeconds(1);

    /**
     * Runs the race against {@code store}, ends every session it opened, and returns what the
     * torture's checker reports.
     */
    List<String> violations(LockStore store) throws Exception {
        store.execute(
                "create table if not exists torture_save (id bigserial primary key, resource_key varchar(200),"
                        + " fencing_token bigint, owner_id varchar(64), saved_at timestamptz)");
        Script s = new Script(store);
        long mark = store.number("select coalesce(max(id), 0) from lock_event");
        try {
            run(s);
        } finally {
            s.pool.shutdownNow();
            // What the race left stays a while before the sessions end, so that the checker sees
            // it well apart from those ends (its slack is 2 ms).
            Instant after = Instant.now().plusMillis(50);
            s.until("the race's result has stood 50 ms", () -> Instant.now().isAfter(after));
            for (LockOwner o : List.of(s.sara, s.omar, s.ada)) {
                Instant before = Instant.now();
                List<LockKey> gone = s.locks.releaseAll(o.ownerId());
                s.seen.ended(
                        TortureChecker.Kind.RELEASE_ALL,
                        o.ownerId(),
                        null,
                        before,
                        Instant.now(),
                        gone);
            }
        }
        try (Connection c = store.separateConnection()) {
            return new TortureChecker(
                            s.seen,
                            List.of(s.whole, s.part),
                            LockStore.BY_ID::aggregateOf,
                            LEASE,
                            mark)
                    .check(c)
                    .violations();
        }
    }

    /** Two people on one fresh record, a manager with a 1 s lease, and what they did. */
    static final class Script {
        final LockStore store;
        final JdbcLockManager locks;
        final JdbcLockAdministration admin;
        final JdbcHandovers handovers;
        final TortureChecker.Observations seen = new TortureChecker.Observations();
        final ExecutorService pool = Executors.newCachedThreadPool();
        final LockKey whole;
        final LockKey part;
        final LockOwner sara = owner("sara");
        final LockOwner omar = owner("omar");
        final LockOwner ada = owner("ada");

        Script(LockStore store) {
            this.store = store;
            this.locks = store.manager(LEASE);
            this.admin = store.administration();
            this.handovers = store.handovers(locks);
            long id = NEXT_AGGREGATE.incrementAndGet();
            this.whole = LockKey.configurator(id);
            this.part = LockKey.variables(id);
            for (LockKey k : List.of(whole, part)) {
                store.execute("delete from app_lock where resource_key = ?", k.toString());
            }
        }

        private static LockOwner owner(String name) {
            String id = UUID.randomUUID().toString();
            return new LockOwner(id, name + "-" + id.substring(0, 8), name);
        }

        /**
         * Each step begins 10 ms after the one before it ended: the checker allows 2 ms between the
         * JVM's and the database's reading of one clock, and a step that follows a grant within
         * that slack may not count on it.
         */
        private void apart() {
            Instant from = lastStep.plusMillis(10);
            until("10 ms after the last step", () -> Instant.now().isAfter(from));
        }

        private Instant lastStep = Instant.MIN;

        Lock acquire(LockOwner who, String view, LockKey key, LockMode mode) {
            Lock lock = acquireNow(who, view, key, mode);
            lastStep = Instant.now();
            apart();
            return lock;
        }

        private Lock acquireNow(LockOwner who, String view, LockKey key, LockMode mode) {
            Instant before = Instant.now();
            List<Lock> granted = null;
            try {
                granted =
                        store.inTransaction(() -> locks.acquireAll(List.of(key), mode, who, view));
            } catch (LockUnavailableException e) {
                // refused: recorded as such
            }
            seen.acquired(
                    who.ownerId(),
                    view,
                    List.of(key),
                    mode,
                    before,
                    Instant.now(),
                    granted == null ? TortureChecker.Outcome.REFUSED : TortureChecker.Outcome.DONE,
                    granted);
            return granted == null ? null : granted.get(0);
        }

        /**
         * Omar asks for the record and Sara, its holder, agrees; {@code between} runs after the
         * request and before her answer. Recorded as one hand-over call of Omar's.
         */
        void handOver(Runnable between) {
            Instant before = Instant.now();
            HandoverRequest asked =
                    store.inTransaction(() -> handovers.ask(whole, omar, "tab-9", "race"));
            between.run();
            TortureChecker.Outcome outcome = TortureChecker.Outcome.REFUSED;
            Lock got = null;
            try {
                store.inTransaction(
                        () -> handovers.answer(asked.id(), asked.holderOwnerId(), true, null));
                got =
                        locks.locksOf(omar.ownerId()).stream()
                                .filter(l -> l.key().equals(whole))
                                .findFirst()
                                .orElse(null);
                outcome =
                        got == null ? TortureChecker.Outcome.UNKNOWN : TortureChecker.Outcome.DONE;
            } catch (HandoverRefusedException | LockUnavailableException e) {
                // refused: the checker judges whether it had to be
            }
            seen.handedOver(omar.ownerId(), "tab-9", whole, before, Instant.now(), outcome, got);
        }

        void release(LockOwner who, String view, LockKey key) {
            Instant before = Instant.now();
            boolean released = locks.release(key, who.ownerId(), view);
            seen.releasedCall(
                    who.ownerId(),
                    key,
                    view,
                    before,
                    Instant.now(),
                    released ? TortureChecker.Outcome.DONE : TortureChecker.Outcome.REFUSED);
        }

        long number(String sql, Object... params) {
            return store.number(sql, params);
        }

        /** Waits (up to 10 s) until the query counts at least one row. */
        void until(String what, String sql, Object... params) {
            until(what, () -> number(sql, params) > 0);
        }

        /** Waits (up to 10 s) until {@code condition} holds, looking every 5 ms. */
        void until(String what, java.util.function.BooleanSupplier condition) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!condition.getAsBoolean()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the race never reached its step: " + what);
                }
                LockStore.unchecked(
                        () -> {
                            Thread.sleep(5);
                            return null;
                        });
            }
        }
    }
}
