package com.editlock.lock.internal;

import com.editlock.launcher.EmbeddedDatabase;
import com.editlock.lock.HandoverRefusedException;
import com.editlock.lock.HandoverRequest;
import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockNotHeldException;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LockUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A torture test of the lock store: many clients at once on a few aggregates, mixing every
 * operation, with leases short enough to lapse mid-run and sweeps running concurrently. Each client
 * writes down what it was told (granted with which token at which database time, save accepted at
 * which database time, released); {@link TortureChecker} then proves from that, and from the audit
 * history, that the promises held.
 *
 * <p>Short form: {@link LockStoreTortureTest} in {@code mvn verify}. Long form, printing what it
 * ran and found: {@code mvn -Ptorture -Dtorture.operations=1000000}.
 */
public final class LockTorture {

    /** What one run does. */
    public record Plan(
            int clients,
            int aggregates,
            long operations,
            Duration maxDuration,
            Duration lease,
            long seed) {}

    /** What happened. */
    public record Result(
            long operations,
            Map<Op, Long> counts,
            long unexpectedFailures,
            List<String> failures,
            TortureChecker.Report report,
            Duration took) {}

    /** The operations a client mixes. */
    public enum Op {
        ACQUIRE,
        GRANTED,
        REFUSED,
        RENEW,
        /** A heartbeat noted by the node, renewed in its next round (in bulk with others). */
        BEAT_NOTED,
        /** A noted beat whose round renewed at least one lock. */
        BULK_RENEWED,
        RELEASE,
        RELEASE_TAB,
        END_SESSION,
        FORCE_RELEASE,
        FORCE_RELEASE_USER,
        TAKE_OVER,
        TOOK_OVER,
        /** Asked whoever holds a key to hand it over, and answered for them: hand it over. */
        HAND_OVER,
        HANDED_OVER,
        SAVE,
        SAVE_ACCEPTED,
        SAVE_REFUSED,
        STALE_SAVE,
        SWEEP,
        PAUSE
    }

    private static final long FIRST_AGGREGATE = 900_001;

    /**
     * How often the torture's own sweeper runs (the application's timer runs every few seconds).
     */
    static final Duration SWEEP_INTERVAL = Duration.ofMillis(100);

    private volatile boolean done;

    /** Set once the clients stopped: the sweeper ends, and one last sweep follows the leases. */
    private volatile boolean sweeperDone;

    private final LockStore store;
    private final Plan plan;
    private final JdbcLockManager locks;
    private final JdbcLockAdministration admin;
    private final JdbcHandovers handovers;
    private final NodeHeartbeats heartbeats;
    private final List<LockKey> keys = new ArrayList<>();
    private final TortureChecker.Observations seen = new TortureChecker.Observations();
    private final AtomicLong operations = new AtomicLong();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final Map<Op, AtomicLong> counts = new EnumMap<>(Op.class);

    public LockTorture(LockStore store, Plan plan) {
        this.store = store;
        this.plan = plan;
        this.locks = store.manager(plan.lease());
        this.admin = store.administration();
        this.handovers = store.handovers(locks);
        this.heartbeats = store.heartbeats(locks, plan.lease());
        for (int a = 0; a < plan.aggregates(); a++) {
            long id = FIRST_AGGREGATE + a;
            keys.add(LockKey.configurator(id));
            keys.add(LockKey.variables(id));
            for (int item = 1; item <= 8; item++) {
                keys.add(LockKey.itemFilters(id * 100 + item));
            }
        }
        for (Op op : Op.values()) {
            counts.put(op, new AtomicLong());
        }
    }

    public Result run() throws Exception {
        store.execute(
                "create table if not exists torture_save (id bigserial primary key, resource_key varchar(200),"
                        + " fencing_token bigint, owner_id varchar(64), saved_at timestamptz)");
        for (LockKey key :
                keys) { // a clean slate for these keys: an earlier run in this database is not ours
            store.execute("delete from app_lock where resource_key = ?", key.toString());
        }
        long mark = store.number("select coalesce(max(id), 0) from lock_event");
        long start = System.nanoTime();
        long deadline = start + plan.maxDuration().toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(plan.clients() + 2);
        try {
            List<Future<?>> clients = new ArrayList<>();
            Future<?> sweeper = pool.submit(() -> sweepEvery(SWEEP_INTERVAL, deadline));
            Future<?> renewer = pool.submit(() -> renewRounds(deadline));
            for (int i = 0; i < plan.clients(); i++) {
                Random random = new Random(plan.seed() * 31 + i);
                clients.add(pool.submit(() -> new Client(random).run(deadline)));
            }
            for (Future<?> client : clients) {
                client.get(plan.maxDuration().toSeconds() + 120, TimeUnit.SECONDS);
            }
            done = true;
            renewer.get(60, TimeUnit.SECONDS);
            // The clients are gone and nothing beats any more: once every lease has run out, one
            // last sweep, after which no lapsed lock may be left (the checker's last rule).
            sweeperDone = true;
            sweeper.get(60, TimeUnit.SECONDS);
            Thread.sleep(plan.lease().plus(SWEEP_INTERVAL).toMillis());
            Instant before = Instant.now();
            store.asDeclared("sweepExpired", locks::sweepExpired);
            seen.swept(before, Instant.now());
        } finally {
            pool.shutdownNow();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        TortureChecker.Report report;
        try (Connection c = store.separateConnection()) {
            report =
                    new TortureChecker(seen, keys, LockStore.BY_ID::aggregateOf, plan.lease(), mark)
                            .expiresAtTheNextSweep()
                            .check(c);
        }
        Map<Op, Long> totals = new EnumMap<>(Op.class);
        counts.forEach((op, n) -> totals.put(op, n.get()));
        return new Result(
                Math.min(operations.get(), plan.operations()),
                totals,
                failures.size(),
                List.copyOf(failures),
                report,
                took);
    }

    private void count(Op op) {
        counts.get(op).incrementAndGet();
    }

    /**
     * The EJB timer's stand-in: a sweep every {@code interval} until the clients are done, so that
     * a lapsed lock is removed within a bound the checker holds the store to (the clients also
     * sweep now and then).
     */
    private Void sweepEvery(Duration interval, long deadline) throws InterruptedException {
        while (!sweeperDone && System.nanoTime() < deadline + TimeUnit.SECONDS.toNanos(120)) {
            Instant before = Instant.now();
            try {
                store.asDeclared("sweepExpired", locks::sweepExpired);
                seen.swept(before, Instant.now());
            } catch (RuntimeException e) {
                failures.add("sweeper: " + e);
            }
            Thread.sleep(interval.toMillis());
        }
        return null;
    }

    /**
     * The node's lease renewer: a round of bulk renewal every other {@link NodeHeartbeats#round()}
     * until the clients are done, and a last one; each beat it renewed is written down as a
     * heartbeat call from the moment it was noted to the end of its round, with the number of locks
     * it renewed.
     */
    private Void renewRounds(long deadline) throws InterruptedException {
        boolean last = false;
        while (!last) {
            last = done || System.nanoTime() >= deadline + TimeUnit.SECONDS.toNanos(120);
            try {
                List<NodeHeartbeats.Renewal> round = heartbeats.renewNoted();
                Instant after = Instant.now();
                for (NodeHeartbeats.Renewal r : round) {
                    if (r.renewed() > 0) {
                        count(Op.BULK_RENEWED);
                    }
                    seen.renewedCall(
                            r.beat().ownerId(), r.beat().view(), r.noted(), after, r.renewed());
                }
            } catch (RuntimeException e) {
                failures.add("renewer: " + e);
            }
            if (!last) {
                // Twice the node's wait (half a lease): a wider window between a beat and its
                // round, where a grant or a release of the same tab can fall.
                Thread.sleep(heartbeats.round().toMillis() * 2);
            }
        }
        return null;
    }

    /**
     * One simulated person: one session at a time with two tabs, and what it believes it holds.
     * Every call is written down with its instants and answer ({@link
     * TortureChecker.Observations}); a call that throws anything but the contract's refusal is a
     * failure of the run.
     */
    private final class Client {
        private final Random random;
        private LockOwner owner = newOwner();
        private final Map<LockKey, Lock> held = new HashMap<>();

        /** Tokens this session held before on a key: a stale tab presents one. */
        private final Map<LockKey, Long> earlier = new HashMap<>();

        Client(Random random) {
            this.random = random;
        }

        private LockOwner newOwner() {
            String id = UUID.randomUUID().toString();
            // A login of its own: nobody asks themselves to hand a lock over.
            return new LockOwner(id, "torture-" + id.substring(0, 8), "Torture");
        }

        void run(long deadline) {
            while (System.nanoTime() < deadline
                    && operations.incrementAndGet() <= plan.operations()) {
                try {
                    step();
                } catch (RuntimeException e) {
                    if (failures.size() < 20) {
                        failures.add(e.toString());
                    } else {
                        failures.add("…");
                    }
                }
            }
        }

        private String tab() {
            return random.nextBoolean() ? "tab-1" : "tab-2";
        }

        /**
         * A lock change inside a transaction of its own (as a screen's service calls it) or, as
         * often, outside any (as the API calls it: autocommitted, the way the method's
         * {@code @Transactional(SUPPORTS)} runs it then).
         */
        private <T> T either(String method, LockStore.Work<T> work) {
            return random.nextBoolean()
                    ? store.inTransaction(work)
                    : store.asDeclared(method, work);
        }

        private LockKey anyKey() {
            return keys.get(random.nextInt(keys.size()));
        }

        private void forget(Lock lock) {
            held.remove(lock.key());
            earlier.put(lock.key(), lock.fencingToken());
        }

        private void step() {
            int dice = random.nextInt(1000);
            if (dice < 330) {
                acquire();
            } else if (dice < 430) {
                String view = random.nextBoolean() ? null : tab();
                if (random.nextBoolean()) {
                    count(Op.BEAT_NOTED); // written down by the renewer, with its round
                    heartbeats.beat(owner.ownerId(), view);
                } else {
                    count(Op.RENEW);
                    Instant before = Instant.now();
                    int renewed = either("renew", () -> locks.renew(owner.ownerId(), view));
                    seen.renewedCall(owner.ownerId(), view, before, Instant.now(), renewed);
                }
            } else if (dice < 600) {
                release();
            } else if (dice < 640) {
                count(Op.RELEASE_TAB);
                String view = tab();
                Instant before = Instant.now();
                List<LockKey> gone =
                        either("releaseView", () -> locks.releaseView(owner.ownerId(), view));
                seen.ended(
                        TortureChecker.Kind.RELEASE_VIEW,
                        owner.ownerId(),
                        view,
                        before,
                        Instant.now(),
                        gone);
                List.copyOf(held.values()).stream()
                        .filter(l -> view.equals(l.view()))
                        .forEach(this::forget);
            } else if (dice < 660) {
                count(Op.END_SESSION);
                Instant before = Instant.now();
                List<LockKey> gone = either("releaseAll", () -> locks.releaseAll(owner.ownerId()));
                seen.ended(
                        TortureChecker.Kind.RELEASE_ALL,
                        owner.ownerId(),
                        null,
                        before,
                        Instant.now(),
                        gone);
                held.clear();
                earlier.clear();
                owner = newOwner();
            } else if (dice < 675) {
                count(Op.FORCE_RELEASE_USER); // an admin releases everything this person holds
                Instant before = Instant.now();
                List<Lock> gone =
                        either(
                                "forceReleaseAllOf",
                                () -> admin.forceReleaseAllOf(owner.login(), "ada", "torture"));
                seen.forcedUser(owner.ownerId(), before, Instant.now(), gone);
            } else if (dice < 680) {
                count(Op.FORCE_RELEASE);
                LockKey key = anyKey();
                Instant before = Instant.now();
                List<Lock> gone =
                        either("forceRelease", () -> admin.forceRelease(key, "ada", "torture"));
                seen.forced(key, before, Instant.now(), gone);
            } else if (dice < 960) {
                save(random.nextInt(10) == 0);
            } else if (dice < 970) {
                takeOver();
            } else if (dice < 980) {
                handOver();
            } else if (dice < 990) {
                count(Op.SWEEP);
                Instant before = Instant.now();
                store.asDeclared("sweepExpired", locks::sweepExpired);
                seen.swept(before, Instant.now());
            } else {
                count(Op.PAUSE); // stops beating for a while: its leases lapse; back, it
                // presses Save in every tab
                LockStore.unchecked(
                        () -> {
                            Thread.sleep(
                                    plan.lease().toMillis()
                                            + random.nextInt(
                                                    (int) plan.lease().toMillis() / 4 + 1));
                            return null;
                        });
                for (int tries = held.size(); tries > 0; tries--) {
                    save(false);
                }
            }
        }

        private void acquire() {
            count(Op.ACQUIRE);
            List<LockKey> wanted = new ArrayList<>();
            int n = 1 + (random.nextInt(10) < 7 ? 0 : random.nextInt(3));
            for (int i = 0; i < n; i++) {
                wanted.add(anyKey());
            }
            LockMode mode = random.nextInt(10) < 3 ? LockMode.READ : LockMode.WRITE;
            String view = tab();
            Instant before = Instant.now();
            try {
                List<Lock> granted =
                        either("acquireAll", () -> locks.acquireAll(wanted, mode, owner, view));
                seen.acquired(
                        owner.ownerId(),
                        view,
                        wanted,
                        mode,
                        before,
                        Instant.now(),
                        TortureChecker.Outcome.DONE,
                        granted);
                count(Op.GRANTED);
                for (Lock lock : granted) {
                    Lock was = held.put(lock.key(), lock);
                    if (was != null && was.fencingToken() != lock.fencingToken()) {
                        earlier.put(was.key(), was.fencingToken());
                    }
                }
            } catch (LockUnavailableException e) {
                seen.acquired(
                        owner.ownerId(),
                        view,
                        wanted,
                        mode,
                        before,
                        Instant.now(),
                        TortureChecker.Outcome.REFUSED,
                        null);
                count(Op.REFUSED);
            }
        }

        /**
         * Asks whoever holds a key to hand it over, and answers for them at once: hand it over (the
         * holder's client finds out when its next save is refused).
         */
        private void handOver() {
            count(Op.HAND_OVER);
            LockKey key = anyKey();
            String view = tab();
            Instant before = Instant.now();
            TortureChecker.Outcome outcome = TortureChecker.Outcome.REFUSED;
            Lock lock = null;
            try {
                HandoverRequest asked =
                        store.inTransaction(() -> handovers.ask(key, owner, view, "torture"));
                store.inTransaction(
                        () -> handovers.answer(asked.id(), asked.holderOwnerId(), true, null));
                count(Op.HANDED_OVER);
                // Granted: the lock itself, unless another client ended it meanwhile (then the
                // history alone judges the call).
                lock =
                        locks.locksOf(owner.ownerId()).stream()
                                .filter(l -> l.key().equals(key) && view.equals(l.view()))
                                .findFirst()
                                .orElse(null);
                outcome =
                        lock == null ? TortureChecker.Outcome.UNKNOWN : TortureChecker.Outcome.DONE;
                if (lock != null) {
                    Lock was = held.put(lock.key(), lock);
                    if (was != null && was.fencingToken() != lock.fencingToken()) {
                        earlier.put(was.key(), was.fencingToken());
                    }
                }
            } catch (HandoverRefusedException | LockUnavailableException e) {
                // nobody held it, it was ours, or its holder's lock ended before the answer
            } finally { // an error answer too: not handed over, judged as refused (and a failure)
                seen.handedOver(owner.ownerId(), view, key, before, Instant.now(), outcome, lock);
            }
        }

        /** Takes a key from whoever holds it (an admin's or a team lead's take-over). */
        private void takeOver() {
            count(Op.TAKE_OVER);
            LockKey key = anyKey();
            String view = tab();
            Instant before = Instant.now();
            try {
                Lock lock =
                        either(
                                "takeOver",
                                () -> locks.takeOver(key, owner, view, owner.login(), "torture"));
                seen.tookOver(
                        owner.ownerId(),
                        view,
                        key,
                        before,
                        Instant.now(),
                        TortureChecker.Outcome.DONE,
                        lock);
                count(Op.TOOK_OVER);
                Lock was = held.put(lock.key(), lock);
                if (was != null && was.fencingToken() != lock.fencingToken()) {
                    earlier.put(was.key(), was.fencingToken());
                }
            } catch (RuntimeException e) { // refused, or an error answer: judged as refused
                seen.tookOver(
                        owner.ownerId(),
                        view,
                        key,
                        before,
                        Instant.now(),
                        TortureChecker.Outcome.REFUSED,
                        null);
                if (!(e instanceof LockUnavailableException)) {
                    throw e; // an error answer also fails the run
                }
            }
        }

        private void release() {
            if (held.isEmpty()) {
                return;
            }
            count(Op.RELEASE);
            Lock lock =
                    held.values().stream()
                            .skip(random.nextInt(held.size()))
                            .findFirst()
                            .orElseThrow();
            Instant before = Instant.now();
            boolean released =
                    either(
                            "release",
                            () -> locks.release(lock.key(), owner.ownerId(), lock.view()));
            seen.releasedCall(
                    owner.ownerId(),
                    lock.key(),
                    lock.view(),
                    before,
                    Instant.now(),
                    released ? TortureChecker.Outcome.DONE : TortureChecker.Outcome.REFUSED);
            forget(lock);
        }

        /**
         * A save under the lock: the fencing check and the write in one transaction. A stale tab
         * presents a token this session held on the key before; it must be refused.
         */
        private void save(boolean stale) {
            List<Lock> writable =
                    held.values().stream().filter(l -> l.mode() == LockMode.WRITE).toList();
            if (writable.isEmpty()) {
                return;
            }
            Lock lock = writable.get(random.nextInt(writable.size()));
            Long presented = lock.fencingToken();
            if (stale) {
                if (!earlier.containsKey(lock.key())) {
                    return;
                }
                presented = earlier.get(lock.key());
                if (presented == lock.fencingToken()) {
                    return;
                }
                count(Op.STALE_SAVE);
            } else {
                count(Op.SAVE);
            }
            long token = presented;
            Instant before = Instant.now();
            try { // judged at: the transaction's start, when verify (its first statement) ran;
                // written at: the write
                Instant[] at =
                        store.inTransaction(
                                () -> {
                                    locks.verify(lock.key(), owner.ownerId(), token);
                                    try (Connection c = store.getConnection();
                                            PreparedStatement ps =
                                                    c.prepareStatement(
                                                            "insert into torture_save (resource_key, fencing_token, owner_id, saved_at)"
                                                                    + " values (?, ?, ?, transaction_timestamp()) returning saved_at,"
                                                                    + " clock_timestamp()")) {
                                        ps.setString(1, lock.key().toString());
                                        ps.setLong(2, token);
                                        ps.setString(3, owner.ownerId());
                                        try (ResultSet rs = ps.executeQuery()) {
                                            rs.next();
                                            return new Instant[] {
                                                rs.getTimestamp(1).toInstant(),
                                                rs.getTimestamp(2).toInstant()
                                            };
                                        }
                                    }
                                });
                seen.saveCall(
                        owner.ownerId(), lock.key(), token, before, Instant.now(), at[0], at[1]);
                count(Op.SAVE_ACCEPTED);
            } catch (LockNotHeldException e) {
                seen.saveCall(
                        owner.ownerId(), lock.key(), token, before, Instant.now(), null, null);
                count(Op.SAVE_REFUSED);
                if (!stale) {
                    forget(lock);
                }
            }
        }
    }

    /** The long form: {@code mvn -Ptorture -Dtorture.operations=1000000 [-Dtorture.clients=16]}. */
    public static void main(String[] args) throws Exception {
        Plan plan =
                new Plan(
                        Integer.getInteger("torture.clients", 16),
                        5,
                        Long.getLong("torture.operations", 1_000_000),
                        Duration.ofMinutes(Long.getLong("torture.minutes", 60)),
                        Duration.ofMillis(Long.getLong("torture.leaseMillis", 200)),
                        Long.getLong("torture.seed", System.currentTimeMillis()));
        try (EmbeddedDatabase db = EmbeddedDatabase.throwAway()) {
            Result result = new LockTorture(LockStore.on(db), plan).run();
            System.out.println(describe(plan, result));
            System.exit(
                    result.report().violations().isEmpty() && result.unexpectedFailures() == 0
                            ? 0
                            : 1);
        }
    }

    /** A Markdown summary of a run. */
    public static String describe(Plan plan, Result r) {
        StringBuilder out = new StringBuilder();
        out.append(
                String.format(
                        "%nLock store torture: %d clients, %d aggregates (%d keys), lease %d ms, seed %d%n%n",
                        plan.clients(),
                        plan.aggregates(),
                        plan.aggregates() * 10,
                        plan.lease().toMillis(),
                        plan.seed()));
        out.append(
                String.format(
                        "| operations | took | ops/s | grants | refusals | saves accepted | saves refused |"
                                + " expired (audited) | violations | unexpected failures |%n|---:|---:|---:|---:|---:|---:|---:|---:|"
                                + "---:|---:|%n"));
        out.append(
                String.format(
                        "| %,d | %d s | %,.0f | %,d | %,d | %,d | %,d | %,d | %d | %d |%n",
                        r.operations(),
                        r.took().toSeconds(),
                        r.operations() / Math.max(0.001, r.took().toMillis() / 1000.0),
                        r.counts().get(Op.GRANTED),
                        r.counts().get(Op.REFUSED),
                        r.counts().get(Op.SAVE_ACCEPTED),
                        r.counts().get(Op.SAVE_REFUSED),
                        r.report().expired(),
                        r.report().violations().size(),
                        r.unexpectedFailures()));
        out.append(
                String.format(
                        "%nChecked: %,d calls, %,d locks (tokens), %,d accepted saves (%,d stale-tab saves"
                                + " tried), %,d audit rows replayed and each matched to its call (%,d), %,d locks left at the end;"
                                + " worst expiry %d ms after the lease ran out.%n",
                        r.report().callsJudged(),
                        r.report().tokens(),
                        r.report().saves(),
                        r.counts().get(Op.STALE_SAVE),
                        r.report().events(),
                        r.report().rowsMatched(),
                        r.report().finalLocks(),
                        r.report().worstExpiryDelay().toMillis()));
        r.report().violations().stream()
                .limit(20)
                .forEach(v -> out.append("VIOLATION: ").append(v).append('\n'));
        r.failures().forEach(f -> out.append("FAILURE: ").append(f).append('\n'));
        return out.toString();
    }
}
