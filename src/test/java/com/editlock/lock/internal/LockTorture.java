package com.editlock.lock.internal;

import com.editlock.launcher.EmbeddedDatabase;
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
 * A torture test of the lock store: many clients at once on a few aggregates, mixing every operation, with leases
 * short enough to lapse mid-run and sweeps running concurrently. Each client writes down what it was told (granted
 * with which token at which database time, save accepted at which database time, released); {@link TortureChecker}
 * then proves from that, and from the audit history, that the promises held.
 *
 * <p>Short form: {@link LockStoreTortureTest} in {@code mvn verify}. Long form, printing what it ran and found:
 * {@code mvn -Ptorture -Dtorture.operations=1000000}.
 */
public final class LockTorture {

    /** What one run does. */
    public record Plan(int clients, int aggregates, long operations, Duration maxDuration, Duration lease,
            long seed) {
    }

    /** What happened. */
    public record Result(long operations, Map<Op, Long> counts, long unexpectedFailures, List<String> failures,
            TortureChecker.Report report, Duration took) {
    }

    /** The operations a client mixes. */
    public enum Op {
        ACQUIRE, GRANTED, REFUSED, RENEW, RELEASE, RELEASE_TAB, END_SESSION, FORCE_RELEASE, SAVE, SAVE_ACCEPTED,
        SAVE_REFUSED, SWEEP, PAUSE
    }

    private static final long FIRST_AGGREGATE = 900_001;

    private final LockStore store;
    private final Plan plan;
    private final JdbcLockManager locks;
    private final List<LockKey> keys = new ArrayList<>();
    private final TortureChecker.Observations seen = new TortureChecker.Observations();
    private final AtomicLong operations = new AtomicLong();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final Map<Op, AtomicLong> counts = new EnumMap<>(Op.class);

    public LockTorture(LockStore store, Plan plan) {
        this.store = store;
        this.plan = plan;
        this.locks = store.manager(plan.lease());
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
        store.execute("create table if not exists torture_save (id bigserial primary key, resource_key varchar(200),"
                + " fencing_token bigint, owner_id varchar(64), saved_at timestamptz)");
        for (LockKey key : keys) { // a clean slate for these keys: an earlier run in this database is not ours
            store.execute("delete from app_lock where resource_key = ?", key.toString());
        }
        long mark = store.number("select coalesce(max(id), 0) from lock_event");
        long start = System.nanoTime();
        long deadline = start + plan.maxDuration().toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(plan.clients());
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int i = 0; i < plan.clients(); i++) {
                Random random = new Random(plan.seed() * 31 + i);
                clients.add(pool.submit(() -> new Client(random).run(deadline)));
            }
            for (Future<?> client : clients) {
                client.get(plan.maxDuration().toSeconds() + 120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        TortureChecker.Report report;
        try (Connection c = store.separateConnection()) {
            report = new TortureChecker(seen, keys, plan.lease(), mark).check(c);
        }
        Map<Op, Long> totals = new EnumMap<>(Op.class);
        counts.forEach((op, n) -> totals.put(op, n.get()));
        return new Result(Math.min(operations.get(), plan.operations()), totals, failures.size(),
                List.copyOf(failures), report, took);
    }

    private void count(Op op) {
        counts.get(op).incrementAndGet();
    }

    /** One simulated person: one session at a time with two tabs, and what it believes it holds. */
    private final class Client {
        private final Random random;
        private LockOwner owner = newOwner();
        private final Map<LockKey, Lock> held = new HashMap<>();

        Client(Random random) {
            this.random = random;
        }

        private LockOwner newOwner() {
            return new LockOwner(UUID.randomUUID().toString(), "torture", "Torture");
        }

        void run(long deadline) {
            while (System.nanoTime() < deadline && operations.incrementAndGet() <= plan.operations()) {
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
         * A lock change inside a transaction of its own (as a screen's service calls it) or, as often, outside any
         * (as the API calls it: autocommitted, the way the method's {@code @Transactional(SUPPORTS)} runs it then).
         */
        private <T> T either(String method, LockStore.Work<T> work) {
            return random.nextBoolean() ? store.inTransaction(work) : store.asDeclared(method, work);
        }

        private LockKey anyKey() {
            return keys.get(random.nextInt(keys.size()));
        }

        private void step() {
            int dice = random.nextInt(1000);
            if (dice < 330) {
                acquire();
            } else if (dice < 430) {
                count(Op.RENEW);
                String view = random.nextBoolean() ? null : tab();
                Instant before = Instant.now();
                int renewed = either("renew", () -> locks.renew(owner.ownerId(), view));
                seen.renewed(owner.ownerId(), before, Instant.now(), renewed);
            } else if (dice < 600) {
                release();
            } else if (dice < 640) {
                count(Op.RELEASE_TAB);
                String view = tab();
                either("releaseView", () -> locks.releaseView(owner.ownerId(), view));
                held.values().removeIf(l -> view.equals(l.view()));
            } else if (dice < 660) {
                count(Op.END_SESSION);
                either("releaseAll", () -> locks.releaseAll(owner.ownerId()));
                held.clear();
                owner = newOwner();
            } else if (dice < 680) {
                count(Op.FORCE_RELEASE);
                LockKey key = anyKey();
                either("forceRelease", () -> locks.forceRelease(key, "ada", "torture"));
            } else if (dice < 950) {
                save();
            } else if (dice < 990) {
                count(Op.SWEEP);
                store.asDeclared("sweepExpired", locks::sweepExpired);
            } else {
                count(Op.PAUSE); // stops beating for a while: its leases lapse
                LockStore.unchecked(() -> {
                    Thread.sleep(plan.lease().toMillis() + random.nextInt((int) plan.lease().toMillis() + 1));
                    return null;
                });
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
            try {
                List<Lock> granted = either("acquireAll", () -> locks.acquireAll(wanted, mode, owner, view));
                count(Op.GRANTED);
                for (Lock lock : granted) {
                    seen.granted(lock);
                    held.put(lock.key(), lock);
                }
            } catch (LockUnavailableException e) {
                count(Op.REFUSED);
            }
        }

        private void release() {
            if (held.isEmpty()) {
                return;
            }
            count(Op.RELEASE);
            Lock lock = held.values().stream().skip(random.nextInt(held.size())).findFirst().orElseThrow();
            Instant before = Instant.now();
            boolean released = either("release", () -> locks.release(lock.key(), owner.ownerId(), lock.view()));
            if (released) {
                seen.released(lock.fencingToken(), before, Instant.now());
            }
            held.remove(lock.key());
        }

        private void save() {
            List<Lock> writable = held.values().stream().filter(l -> l.mode() == LockMode.WRITE).toList();
            if (writable.isEmpty()) {
                return;
            }
            count(Op.SAVE);
            Lock lock = writable.get(random.nextInt(writable.size()));
            try { // saved_at: the transaction's start, which is when verify judged the lock (its first statement)
                Instant savedAt = store.inTransaction(() -> {
                    locks.verify(lock.key(), lock.ownerId(), lock.fencingToken());
                    try (Connection c = store.getConnection(); PreparedStatement ps = c.prepareStatement(
                            "insert into torture_save (resource_key, fencing_token, owner_id, saved_at)"
                                    + " values (?, ?, ?, transaction_timestamp()) returning saved_at")) {
                        ps.setString(1, lock.key().toString());
                        ps.setLong(2, lock.fencingToken());
                        ps.setString(3, lock.ownerId());
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            return rs.getTimestamp(1).toInstant();
                        }
                    }
                });
                count(Op.SAVE_ACCEPTED);
                seen.saved(lock, savedAt);
            } catch (LockNotHeldException e) {
                count(Op.SAVE_REFUSED);
                held.remove(lock.key());
            }
        }
    }

    /** The long form: {@code mvn -Ptorture -Dtorture.operations=1000000 [-Dtorture.clients=16]}. */
    public static void main(String[] args) throws Exception {
        Plan plan = new Plan(Integer.getInteger("torture.clients", 16), 5,
                Long.getLong("torture.operations", 1_000_000), Duration.ofMinutes(Long.getLong("torture.minutes", 60)),
                Duration.ofMillis(Long.getLong("torture.leaseMillis", 200)), Long.getLong("torture.seed",
                        System.currentTimeMillis()));
        try (EmbeddedDatabase db = EmbeddedDatabase.throwAway()) {
            Result result = new LockTorture(LockStore.on(db), plan).run();
            System.out.println(describe(plan, result));
            System.exit(result.report().violations().isEmpty() && result.unexpectedFailures() == 0 ? 0 : 1);
        }
    }

    /** A Markdown summary of a run. */
    public static String describe(Plan plan, Result r) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%nLock store torture: %d clients, %d aggregates (%d keys), lease %d ms, seed %d%n%n",
                plan.clients(), plan.aggregates(), plan.aggregates() * 10, plan.lease().toMillis(), plan.seed()));
        out.append(String.format("| operations | took | ops/s | grants | refusals | saves accepted | saves refused |"
                + " expired (audited) | violations | unexpected failures |%n|---:|---:|---:|---:|---:|---:|---:|---:|"
                + "---:|---:|%n"));
        out.append(String.format("| %,d | %d s | %,.0f | %,d | %,d | %,d | %,d | %,d | %d | %d |%n", r.operations(),
                r.took().toSeconds(), r.operations() / Math.max(0.001, r.took().toMillis() / 1000.0),
                r.counts().get(Op.GRANTED), r.counts().get(Op.REFUSED), r.counts().get(Op.SAVE_ACCEPTED),
                r.counts().get(Op.SAVE_REFUSED), r.report().expired(), r.report().violations().size(),
                r.unexpectedFailures()));
        out.append(String.format("%nChecked: %,d grants (tokens), %,d accepted saves, %,d audit rows replayed, %,d locks"
                + " left at the end.%n", r.report().tokens(), r.report().saves(), r.report().events(),
                r.report().finalLocks()));
        r.report().violations().stream().limit(20).forEach(v -> out.append("VIOLATION: ").append(v).append('\n'));
        r.failures().forEach(f -> out.append("FAILURE: ").append(f).append('\n'));
        return out.toString();
    }
}
