package com.editlock.it.reliability;

import com.editlock.it.browser.Browser;
import com.editlock.it.browser.PageStream;
import com.editlock.it.node.ApiClient;
import com.editlock.it.node.Cluster;
import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.internal.TortureChecker;
import jakarta.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lock-store torture, over HTTP against a cluster: simulated users, half on each node (through
 * the proxy when the cluster has one, each kept on its node by the proxy's cookie), acquire (WRITE
 * and READ, whole configurators and their sub-pages), renew, save, release, log out and in again
 * (their sessions end), go quiet until their leases lapse, and an admin force-releases and takes
 * over. Every call is written down with its session, tab, window and answer, whatever it answered
 * (a screen's Done, Save and cut-off tab too: a release of the tab's lock, the cut one lasting
 * until the layer's bound), and the independent {@link TortureChecker} judges them call by call
 * against the history, as it judges the store's own torture: every row needs a call of its session
 * that explains it, every end call ends everything in its reach, expiry is judged early and late,
 * every refusal needs a reason. A session's owner id is learned from the grants it saw (or, for one
 * that saw none, from its refusals). Bounded by operations and by time.
 */
public final class ClusterTorture {

    /**
     * {@code storeMayFail}: a database outage is part of the run, so 503 answers are expected (and
     * timed).
     */
    public record Plan(
            int clients,
            long operations,
            Duration maxDuration,
            long seed,
            boolean storeMayFail,
            double adminActions,
            double asks) {

        /**
         * {@code adminActions}: the share of the admin's steps that force a release or take a
         * record over (a planted bug in those paths needs many); otherwise one in two hundred.
         * {@code asks}: the share of an editor's steps that ask another session to hand a record
         * over; otherwise one in a hundred.
         */
        public Plan {
            for (double share : new double[] {adminActions, asks}) {
                if (share < 0 || share > 1) {
                    throw new IllegalArgumentException("a share of steps: 0 to 1, not " + share);
                }
            }
        }

        public Plan(
                int clients,
                long operations,
                Duration maxDuration,
                long seed,
                boolean storeMayFail,
                double adminActions) {
            this(clients, operations, maxDuration, seed, storeMayFail, adminActions, 0.01);
        }

        public Plan(
                int clients,
                long operations,
                Duration maxDuration,
                long seed,
                boolean storeMayFail) {
            this(clients, operations, maxDuration, seed, storeMayFail, 0.0045);
        }
    }

    /**
     * {@code releaseDelays}: per layer, the worst time from the cause (a tab cut off, a tab's
     * goodbye, a logout) to the lock's end in the history; {@code layerViolations}: locks that
     * outlived their layer's bound (for a tab cut off {@link #TAB_BOUND}; for a goodbye or a logout
     * the call itself).
     */
    public record Result(
            long operations,
            Map<String, Long> counts,
            long unexpected,
            List<String> samples,
            TortureChecker.Report report,
            Duration took,
            Map<String, Duration> releaseDelays,
            List<String> layerViolations) {

        /** Every violation: the checker's and the layers'. */
        public List<String> violations() {
            List<String> all = new ArrayList<>(report.violations());
            all.addAll(layerViolations);
            return all;
        }
    }

    /**
     * A release the client caused (its tab cut off, or its goodbye): which lock, when, and when its
     * call ended.
     */
    private record Cause(String layer, long token, Instant at, Instant callEnded) {}

    /** One grant as a client saw it. */
    private record Seen(
            int client,
            int generation,
            String key,
            LockMode mode,
            Instant acquiredAt,
            Instant expiresAt,
            long token,
            Instant received) {}

    private final Cluster cluster;
    private final List<String> keys;
    private final Plan plan;
    private final AtomicLong operations = new AtomicLong();
    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
    private final AtomicLong unexpected = new AtomicLong();
    private final ConcurrentLinkedQueue<String> samples = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Seen> grants = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Cause> causes = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Object[]> logouts =
            new ConcurrentLinkedQueue<>(); // client, gen, before, after

    /**
     * One client call as its client saw it, before its session's owner id is known: the checker
     * gets it as a {@link TortureChecker.Call} of that owner ({@link #calls}).
     */
    private record Pending(
            String generation,
            TortureChecker.Kind kind,
            String view,
            String key,
            LockMode mode,
            Instant before,
            Instant after,
            TortureChecker.Outcome outcome,
            Seen granted,
            Long token,
            Instant judgedAt) {}

    /** Every call of every client, whatever it answered: the checker judges them one by one. */
    private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();

    /**
     * A request to hand a key over: made by one client (its session {@code asker}), answered by the
     * client that holds the key or withdrawn by its asker — whichever claims it first ({@code
     * state}), so that a request is never both agreed to and withdrawn by the test itself. The one
     * call the checker gets for it runs from the ask to the answer or the withdrawal.
     */
    private static final class Ask {
        static final int OPEN = 0;
        static final int CLAIMED = 1;
        static final int HANDED = 2;
        static final int CLOSED = 3;

        final String key;
        final long id;
        final String asker;
        final Instant before;
        final java.util.concurrent.atomic.AtomicInteger state =
                new java.util.concurrent.atomic.AtomicInteger(OPEN);

        Ask(String key, long id, String asker, Instant before) {
            this.key = key;
            this.id = id;
            this.asker = asker;
            this.before = before;
        }

        String path() {
            return "api/locks/" + key + "/handover-requests/" + id;
        }
    }

    /** The key an editor's acquire was granted last: what the admin's take-over aims at. */
    private volatile String lastEditorGrant;

    /** The open requests to hand over, for their holders to find. */
    private final ConcurrentLinkedQueue<Ask> asks = new ConcurrentLinkedQueue<>();

    /** How long an asker waits for an answer before it withdraws its request. */
    public static final Duration ASK_PATIENCE = Duration.ofMillis(1_500);

    /**
     * An answer that is no success and no refusal: {@code 503} says the store could not be reached
     * and nothing was changed (the outage); anything else leaves the outcome unknown.
     */
    private static TortureChecker.Outcome unknownOr(ApiClient.Answer a) {
        return a.status() == 503 ? TortureChecker.Outcome.FAILED : TortureChecker.Outcome.UNKNOWN;
    }

    /**
     * Every call that may grant or revive a lock, whatever it answered: client, gen, key (null: a
     * heartbeat), window.
     */
    private final ConcurrentLinkedQueue<GrantCalls.Call> grantingCalls =
            new ConcurrentLinkedQueue<>();

    public ClusterTorture(Cluster cluster, List<String> keys, Plan plan) {
        this.cluster = cluster;
        this.keys = keys;
        this.plan = plan;
    }

    /**
     * When the clients stop at the latest (nanos): the plan's bound, or sooner by {@link #endIn}.
     */
    private final AtomicLong endAt = new AtomicLong(Long.MAX_VALUE);

    /**
     * Ends the run {@code within} from now (or at its own bound, if that comes first): for a run
     * whose length a fault decides, such as a node's restart under load.
     */
    public void endIn(Duration within) {
        endAt.accumulateAndGet(System.nanoTime() + within.toNanos(), Math::min);
    }

    public Result run() throws Exception {
        long mark;
        try (Connection c = cluster.connect();
                var s = c.createStatement();
                ResultSet rs = s.executeQuery("select coalesce(max(id), 0) from lock_event")) {
            rs.next();
            mark = rs.getLong(1);
        }
        long start = System.nanoTime();
        runStart = Instant.now();
        long deadline = start + plan.maxDuration().toNanos();
        endAt.accumulateAndGet(deadline, Math::min);
        ExecutorService pool = Executors.newFixedThreadPool(plan.clients());
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < plan.clients(); i++) {
                Client client = new Client(i);
                running.add(pool.submit(() -> client.run(deadline)));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        // Let the last leases run out and the sweep remove them, so the history is complete.
        Thread.sleep(
                Duration.ofSeconds(Cluster.LEASE_SECONDS + Cluster.SWEEP_SECONDS + 2).toMillis());
        TortureChecker.Report report;
        Map<String, Duration> delays = new TreeMap<>();
        List<String> layerViolations = new ArrayList<>();
        try (Connection c = cluster.connect()) {
            report = check(c, mark);
            layers(c, mark, delays, layerViolations);
            int matched = grantsHaveCalls(c, mark, layerViolations);
            counts.computeIfAbsent("history grants matched to a call", k -> new AtomicLong())
                    .set(matched);
            try (var s =
                    c.prepareStatement(
                            "select event_type, count(*) from lock_event where id > ? group by event_type")) {
                s.setLong(1, mark);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        counts.computeIfAbsent("history " + rs.getString(1), k -> new AtomicLong())
                                .set(rs.getLong(2));
                    }
                }
            }
            if (matched == 0 && counts.containsKey("acquired")) {
                layerViolations.add(
                        "clients were granted locks, but no grant of the history was found to judge");
            }
        }
        delays.put("lease (lapse → removed)", report.worstExpiryDelay());
        Map<String, Long> totals = new TreeMap<>();
        counts.forEach((k, v) -> totals.put(k, v.get()));
        return new Result(
                operations.get(),
                totals,
                unexpected.get(),
                List.copyOf(samples),
                report,
                took,
                delays,
                layerViolations);
    }

    /**
     * A heartbeat's renewal (or revival) happens in the node's next round of bulk renewal, a second
     * after the beat at most ({@code NodeHeartbeats}), plus 1 s for a loaded machine: the call it
     * explains lasts until then.
     */
    public static final Duration RENEWAL_ROUND = Duration.ofSeconds(2);

    /**
     * How soon a tab that was cut off must have lost its locks, from the cut: the node notices
     * within two of its stream's writes (250 ms, {@code LiveStreams}), then the tab grace runs,
     * plus 1 s for a loaded machine. The lease is not this layer's bound (a lapsed lease is the
     * checker's own expiry check).
     */
    public static final Duration TAB_BOUND =
            Duration.ofMillis(250 + Cluster.TAB_GRACE_MILLIS).plusSeconds(1);

    /**
     * How soon each release layer the clients caused took effect, from the history: a tab cut off
     * (no goodbye) within {@link #TAB_BOUND}, a tab's goodbye and a logout within their own call.
     */
    private void layers(
            Connection c, long mark, Map<String, Duration> worst, List<String> violations)
            throws Exception {
        Map<Long, Object[]> endOf = new HashMap<>(); // token -> type, at
        Map<Long, Instant> movedTo =
                new HashMap<>(); // token -> when a newer tab of its session last took it over
        Map<String, List<Object[]>> sessionEnds = new HashMap<>(); // owner -> [token, at]
        try (PreparedStatement ps =
                c.prepareStatement(
                        "select fencing_token, event_type, occurred_at, owner_id "
                                + "from lock_event where id > ? and event_type in ('RELEASED', 'VIEW_CLOSED', 'SESSION_ENDED', "
                                + "'EXPIRED', 'FORCE_RELEASED', 'TAKEN_OVER', 'HANDED_OVER', 'REACQUIRED')")) {
            ps.setLong(1, mark);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Instant at = rs.getTimestamp(3).toInstant();
                    if (rs.getString(2).equals("REACQUIRED")) {
                        movedTo.merge(rs.getLong(1), at, (a, b) -> a.isAfter(b) ? a : b);
                        continue;
                    }
                    endOf.put(rs.getLong(1), new Object[] {rs.getString(2), at});
                    if (rs.getString(2).equals("SESSION_ENDED")) {
                        sessionEnds
                                .computeIfAbsent(rs.getString(4), o -> new ArrayList<>())
                                .add(new Object[] {rs.getLong(1), at});
                    }
                }
            }
        }
        Duration grace = TAB_BOUND;
        for (Cause cause : causes) {
            if (movedTo.getOrDefault(cause.token(), Instant.MIN).isAfter(cause.at())) {
                continue; // the session opened the record again in a new tab, which took the lock
                // over (REACQUIRED)
            }
            Object[] end = endOf.get(cause.token());
            if (end == null) {
                violations.add(
                        String.format(
                                "token %d: its tab %s at %s but the lock never ended",
                                cause.token(), cause.layer(), cause.at()));
                continue;
            }
            Duration delay = Duration.between(cause.at(), (Instant) end[1]);
            boolean closed = cause.layer().equals("was cut off");
            Instant bound = closed ? cause.at().plus(grace) : cause.callEnded().plusMillis(2);
            if (((Instant) end[1]).isAfter(bound)) {
                violations.add(
                        String.format(
                                "token %d: its tab %s at %s, the lock ended (%s) only %d ms later",
                                cause.token(),
                                cause.layer(),
                                cause.at(),
                                end[0],
                                delay.toMillis()));
            }
            if (end[0].equals("VIEW_CLOSED")) {
                worst.merge(
                        closed
                                ? "tab closed (stream cut, grace "
                                        + Cluster.TAB_GRACE_MILLIS
                                        + " ms)"
                                : "tab left (its goodbye)",
                        delay,
                        (a, b) -> a.compareTo(b) >= 0 ? a : b);
            }
        }
        for (Object[] logout : logouts) {
            String owner = generationOwners.get(logout[0] + "/" + logout[1]);
            for (Object[] ended :
                    owner == null
                            ? List.<Object[]>of()
                            : sessionEnds.getOrDefault(owner, List.of())) {
                Duration delay = Duration.between((Instant) logout[2], (Instant) ended[1]);
                if (((Instant) ended[1]).isAfter(((Instant) logout[3]).plusMillis(2))) {
                    violations.add(
                            String.format(
                                    "token %d: its session was logged out at %s, the lock ended only "
                                            + "%d ms later",
                                    (Long) ended[0], logout[2], delay.toMillis()));
                }
                worst.merge("session ended (logout)", delay, (a, b) -> a.compareTo(b) >= 0 ? a : b);
            }
        }
    }

    /**
     * Locks a client's session was told of that the history gives to another session's owner;
     * filled by check().
     */
    private final List<String> ownerMismatches = new ArrayList<>();

    /**
     * The history judged from the clients' side: each session (a client's generation) is one owner
     * and each owner one session, and every grant, re-grant and revival of a torture key lies
     * inside a call of the session that owns it and that could have made it — an acquire or a page
     * opened on that key, or a heartbeat — whatever that call was answered (a lost answer is judged
     * too). A lock the store made for nobody's call, or for the wrong session, fails.
     */
    private int grantsHaveCalls(Connection c, long mark, List<String> violations) throws Exception {
        violations.addAll(ownerMismatches);
        List<GrantCalls.Row> rows = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement(
                        "select id, event_type, resource_key, owner_id, occurred_at "
                                + "from lock_event where id > ? and resource_key = any(?) "
                                + "and event_type in ('ACQUIRED', 'REACQUIRED', 'RENEWED_AFTER_LAPSE') order by id")) {
            ps.setLong(1, mark);
            ps.setArray(2, c.createArrayOf("text", keys.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(
                            new GrantCalls.Row(
                                    rs.getLong(1),
                                    rs.getString(2),
                                    rs.getString(3),
                                    rs.getString(4),
                                    rs.getTimestamp(5).toInstant()));
                }
            }
        }
        return GrantCalls.judge(rows, generationOwners, grantingCalls, violations);
    }

    /**
     * Which owner (session) each client generation was, from the history of its grants; filled by
     * check().
     */
    private final Map<String, String> generationOwners = new ConcurrentHashMap<>();

    /** When the clients started: the nodes' sweep timers run from then on. */
    private volatile Instant runStart;

    /**
     * A session that saw no grant of its own is known only by its refusals: the history's owner of
     * DENIED rows that no known session has is that session whose refused calls, on those keys,
     * hold every one of them — when exactly one does.
     */
    private void learnOwnersFromRefusals(Connection c, long mark) throws Exception {
        java.util.Set<String> known = new java.util.HashSet<>(generationOwners.values());
        Map<String, List<Object[]>> denials = new HashMap<>();
        try (PreparedStatement ps =
                c.prepareStatement(
                        "select owner_id, resource_key, occurred_at from lock_event where id > ?"
                                + " and event_type = 'DENIED' and resource_key = any(?)")) {
            ps.setLong(1, mark);
            ps.setArray(2, c.createArrayOf("text", keys.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (!known.contains(rs.getString(1))) {
                        denials.computeIfAbsent(rs.getString(1), o -> new ArrayList<>())
                                .add(
                                        new Object[] {
                                            rs.getString(2), rs.getTimestamp(3).toInstant()
                                        });
                    }
                }
            }
        }
        Map<String, List<Pending>> refusedByGeneration = new HashMap<>();
        for (Pending p : pending) {
            if (p.kind() == TortureChecker.Kind.ACQUIRE
                    && p.outcome() == TortureChecker.Outcome.REFUSED
                    && !generationOwners.containsKey(p.generation())) {
                refusedByGeneration.computeIfAbsent(p.generation(), g -> new ArrayList<>()).add(p);
            }
        }
        denials.forEach(
                (owner, rows) -> {
                    List<String> fits =
                            refusedByGeneration.entrySet().stream()
                                    .filter(
                                            g ->
                                                    rows.stream()
                                                            .allMatch(
                                                                    r ->
                                                                            insideOne(
                                                                                    r,
                                                                                    g.getValue())))
                                    .map(Map.Entry::getKey)
                                    .toList();
                    if (fits.size() == 1) {
                        generationOwners.put(fits.get(0), owner);
                        refusedByGeneration.remove(fits.get(0));
                    }
                });
    }

    /** Whether a DENIED row ({@code [key, at]}) lies inside one of the refused calls on its key. */
    private static boolean insideOne(Object[] row, List<Pending> refused) {
        Instant at = (Instant) row[1];
        for (Pending p : refused) {
            if (p.key().equals(row[0])
                    && !at.isBefore(p.before().minusMillis(2))
                    && !at.isAfter(p.after().plusMillis(2))) {
                return true;
            }
        }
        return false;
    }

    private TortureChecker.Report check(Connection c, long mark) throws Exception {
        Map<Long, String> ownerOf = new HashMap<>();
        try (PreparedStatement ps =
                c.prepareStatement(
                        "select fencing_token, owner_id from lock_event "
                                + "where event_type = 'ACQUIRED' and id > ?")) {
            ps.setLong(1, mark);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ownerOf.put(rs.getLong(1), rs.getString(2));
                }
            }
        }
        Map<Long, Long> itemToConfigurator = new HashMap<>();
        try (var s = c.createStatement();
                ResultSet rs =
                        s.executeQuery("select id, configurator_id from configurator_item")) {
            while (rs.next()) {
                itemToConfigurator.put(rs.getLong(1), rs.getLong(2));
            }
        }
        java.util.Set<Long> firstSeen = new java.util.HashSet<>();
        List<Seen> ordered = new ArrayList<>(grants);
        ordered.sort(java.util.Comparator.comparing(Seen::received));
        for (Seen g : ordered) {
            String owner =
                    ownerOf.getOrDefault(g.token(), "unknown-" + g.client() + "-" + g.generation());
            String was = generationOwners.putIfAbsent(g.client() + "/" + g.generation(), owner);
            if (was != null && !was.equals(owner)) {
                ownerMismatches.add(
                        String.format(
                                "client %d's session %d was told of token %d, which the history "
                                        + "gives to another owner than its other locks",
                                g.client(), g.generation(), g.token()));
            }
        }
        learnOwnersFromRefusals(c, mark);
        java.util.function.Function<LockKey, LockKey> aggregateOf =
                key ->
                        key.kind() == LockKey.Kind.ITEM_FILTERS
                                ? LockKey.configurator(itemToConfigurator.get(key.id()))
                                : LockKey.configurator(key.id());
        // Every call, of its session's owner: the checker judges each row by the call that made it
        // and each call by the rows it made.
        TortureChecker.Observations seen = new TortureChecker.Observations();
        for (Pending p : pending) {
            String owner =
                    generationOwners.getOrDefault(
                            p.generation(), "a session that saw nothing (" + p.generation() + ")");
            List<LockKey> onKeys = p.key() == null ? List.of() : List.of(LockKey.parse(p.key()));
            List<Lock> told = List.of();
            if (p.granted() != null) {
                Seen g = p.granted();
                LockKey key = LockKey.parse(g.key());
                Instant renewedAt = firstSeen.add(g.token()) ? g.acquiredAt() : g.received();
                Lock lock =
                        new Lock(
                                key,
                                aggregateOf.apply(key),
                                g.mode(),
                                owner,
                                p.view(),
                                "user",
                                "User",
                                g.acquiredAt(),
                                renewedAt,
                                g.expiresAt(),
                                g.token());
                told = List.of(lock);
            }
            seen.call(
                    new TortureChecker.Call(
                            p.kind(),
                            owner,
                            p.view(),
                            onKeys,
                            p.mode(),
                            p.before(),
                            p.after(),
                            p.outcome(),
                            told,
                            p.token() == null ? List.of() : List.of(p.token()),
                            -1,
                            p.judgedAt(),
                            null));
        }
        // The nodes' sweep timers run every second all through the run and the wait after it.
        seen.swept(runStart, Instant.now());
        // No sweep runs while the database is down: then the bound is the whole run (the outage
        // figures say how soon after the database returned the leases that ran out meanwhile were
        // removed).
        Duration bound =
                plan.storeMayFail()
                        ? plan.maxDuration()
                        : Duration.ofSeconds(Cluster.SWEEP_SECONDS).plusSeconds(1);
        return new TortureChecker(
                        seen,
                        keys.stream().map(LockKey::parse).toList(),
                        aggregateOf,
                        Duration.ofSeconds(Cluster.LEASE_SECONDS),
                        mark)
                .expiresWithin(bound)
                .check(c);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void count(String op) {
        counts.computeIfAbsent(op, k -> new AtomicLong()).incrementAndGet();
    }

    /** The slowest 503 answer (an outage must be told within 2 s), in milliseconds. */
    private final AtomicLong slowest503 = new AtomicLong();

    private volatile String slowest503What = "";

    public long slowest503Millis() {
        return slowest503.get();
    }

    public String slowest503What() {
        return slowest503What;
    }

    /**
     * When the database went away and when it accepted connections again ({@link
     * System#nanoTime()}).
     */
    private volatile long outageFrom = Long.MAX_VALUE;

    private volatile long outageUntil = Long.MAX_VALUE;

    /**
     * How long after the database is back a node may still answer 503 (its pool notices the
     * database is back).
     */
    public static final Duration AFTER_OUTAGE = Duration.ofSeconds(2);

    /**
     * The database is about to stop: from now on a 503 with {@code Retry-After} is the promised
     * answer.
     */
    public void outageBegins() {
        outageFrom = System.nanoTime();
    }

    /**
     * The database accepts connections again: a call begun more than {@link #AFTER_OUTAGE} later
     * must not be a 503.
     */
    public void outageEnds() {
        outageUntil = System.nanoTime();
    }

    /**
     * A 503 is the promise only for a call that overlapped the outage (from the stop until {@link
     * #AFTER_OUTAGE} after the database accepted connections again); any other 503 is a wrong
     * answer.
     */
    private boolean duringOutage(ApiClient.Answer a) {
        long answered = System.nanoTime();
        long begun = answered - a.micros() * 1000;
        long until =
                outageUntil == Long.MAX_VALUE
                        ? Long.MAX_VALUE
                        : outageUntil + AFTER_OUTAGE.toNanos();
        return answered >= outageFrom && begun <= until;
    }

    /** Every answer the API and the screens do not promise is unexpected: none is counted apart. */
    private void unexpected(String what, ApiClient.Answer a) {
        if (plan.storeMayFail() && a.status() == 503 && a.retryAfter() != null && duringOutage(a)) {
            count("503 while the store was down");
            long millis = a.micros() / 1000;
            if (millis > slowest503.getAndAccumulate(millis, Math::max)) {
                slowest503What = what;
            }
            return;
        }
        unexpected.incrementAndGet();
        if (samples.size() < 20) {
            samples.add(
                    what
                            + " → "
                            + a.status()
                            + " "
                            + a.body().substring(0, Math.min(200, a.body().length())));
        }
    }

    /**
     * A screen user's open tab: its page, its view token, its live stream, and its lock's token
     * while it edits.
     */
    private static final class Tab {
        final String page;
        final String view;
        final java.net.URI live;
        PageStream stream;
        Long token;

        Tab(String page, String view, java.net.URI live, PageStream stream) {
            this.page = page;
            this.view = view;
            this.live = live;
            this.stream = stream;
        }

        /**
         * The tab's connection goes (a crash, a closed tab, a page left: the stream has no goodbye
         * of its own).
         */
        void closeStream() {
            stream.close();
        }
    }

    /**
     * The admin is client 0; the others are editors. Every fourth editor works through the screens
     * (unless the run stops the database: the screens' outage answers are tested on their own): one
     * tab at a time, with its live stream.
     */
    private final class Client {
        private final int index;
        private final Random random;
        private final String user;
        private final boolean screens;
        private ApiClient api;
        private Browser browser;
        private Tab tab;
        private int generation;
        private final Map<String, Object[]> held = new HashMap<>(); // key -> token, mode
        private final List<Ask> myAsks = new ArrayList<>();
        private String refusedLast;
        private Instant lastBeat = Instant.now();

        /** Writes down one call of this client's current session, answered as {@code outcome}. */
        private void record(
                TortureChecker.Kind kind,
                String view,
                String key,
                LockMode mode,
                Instant before,
                Instant after,
                TortureChecker.Outcome outcome) {
            record(kind, view, key, mode, before, after, outcome, null, null, null);
        }

        /** As above, with the grant it was told of, the token it presented, when it was judged. */
        private void record(
                TortureChecker.Kind kind,
                String view,
                String key,
                LockMode mode,
                Instant before,
                Instant after,
                TortureChecker.Outcome outcome,
                Seen granted,
                Long token,
                Instant judgedAt) {
            pending.add(
                    new Pending(
                            index + "/" + generation,
                            kind,
                            view,
                            key,
                            mode,
                            before,
                            after,
                            outcome,
                            granted,
                            token,
                            judgedAt));
        }

        Client(int index) {
            this.index = index;
            this.random = new Random(plan.seed() * 31 + index);
            this.user = index == 0 ? "ada" : index % 2 == 0 ? "sara" : "omar";
            // Every fourth client works through the screens, on both nodes (a client's node is
            // index % 2).
            this.screens = !plan.storeMayFail() && (index % 8 == 3 || index % 8 == 6);
        }

        void run(long deadline) {
            if (screens) {
                screenLogin();
            } else {
                login();
            }
            while (System.nanoTime() < Math.min(deadline, endAt.get())
                    && operations.get() < plan.operations()) {
                if (screens) {
                    screenStep();
                } else {
                    step();
                }
                long done = operations.incrementAndGet();
                if (done % 100_000 == 0) {
                    System.out.printf("  %,d operations, %s%n", done, counts);
                }
            }
            if (screens) {
                logOutWhileEditing();
            } else {
                logout();
            }
        }

        /**
         * The screen user's last step: a logout while a tab edits, so that every run ends at least
         * one screen session that holds a lock (a logout amid the steps is one in thirty-three of
         * an editing tab's steps, which a short run may never take). A few tries: a record another
         * session holds opens read-only.
         */
        private void logOutWhileEditing() {
            for (int tries = 0; tries < 10 && (tab == null || tab.token == null); tries++) {
                if (tab != null) {
                    closeTab(false);
                }
                openTab();
            }
            if (tab != null && tab.token != null) {
                count("screen session ended");
            }
            screenLogout();
        }

        private void logout() {
            settleAsks(true); // a session's requests end before it does
            Instant before = Instant.now();
            ApiClient.Answer a = api.logout();
            Instant after = Instant.now();
            // A session that ends while the database is unreachable cannot release its locks: they
            // end with their leases (docs/reliability.md), which the sweep bound judges.
            record(
                    TortureChecker.Kind.RELEASE_ALL,
                    null,
                    null,
                    null,
                    before,
                    after,
                    plan.storeMayFail() && duringOutage(a)
                            ? TortureChecker.Outcome.FAILED
                            : unknownOr(a));
            if (a.status() == 204) {
                logouts.add(new Object[] {index, generation, before, after});
            } else {
                unexpected("logout", a);
            }
        }

        private void login() {
            api = cluster.api(index % cluster.size(), Duration.ofSeconds(30));
            ApiClient.Answer a = api.login(user, "demo");
            while (a.status() != 200) {
                unexpected("login", a);
                if (!plan.storeMayFail() || operations.get() >= plan.operations()) {
                    break;
                }
                sleep(500);
                a = api.login(user, "demo");
            }
            lastBeat = Instant.now();
        }

        private void step() {
            if (Duration.between(lastBeat, Instant.now()).toMillis()
                    > Cluster.LEASE_SECONDS * 300L) {
                heartbeat();
                return;
            }
            if (index != 0 && (answerAsk() || settleAsks(false))) {
                return;
            }
            if (index == 0 && random.nextDouble() < plan.adminActions()) {
                if (random.nextBoolean()) {
                    forceRelease();
                } else {
                    takeOver();
                }
                return;
            }
            if (index != 0 && random.nextDouble() < plan.asks()) {
                ask();
                return;
            }
            int dice = random.nextInt(10_000);
            if (dice < 4_500) {
                acquire();
            } else if (dice < 7_500) {
                release();
            } else if (dice < 9_000) {
                save();
            } else if (dice < 9_900) {
                heartbeat();
            } else if (dice < 9_950) {
                count("session ended");
                logout();
                held.clear();
                generation++;
                login();
            } else if (dice < 9_955) {
                count("went quiet");
                sleep((Cluster.LEASE_SECONDS + 2) * 1000L);
                held.clear(); // they lapsed: the sweep deletes them (a late heartbeat may
                // revive one; that is fine)
                heartbeat();
            } else {
                heartbeat();
            }
        }

        private void acquire() {
            String key = keys.get(random.nextInt(keys.size()));
            String mode = random.nextInt(10) < 7 ? "WRITE" : "READ";
            Instant sent = Instant.now();
            ApiClient.Answer a = api.acquire(key, mode);
            Instant received = Instant.now();
            grantingCalls.add(new GrantCalls.Call(index + "/" + generation, key, sent, received));
            Seen seen = null;
            TortureChecker.Outcome outcome = unknownOr(a);
            if (a.status() == 201) {
                count("acquired");
                JsonObject lock = a.json();
                long token = lock.getJsonNumber("token").longValue();
                LockMode granted = LockMode.valueOf(lock.getString("mode"));
                seen =
                        new Seen(
                                index,
                                generation,
                                key,
                                granted,
                                Instant.parse(lock.getString("acquiredAt")),
                                Instant.parse(lock.getString("expiresAt")),
                                token,
                                received);
                grants.add(seen);
                held.put(key, new Object[] {token, granted});
                if (index != 0) {
                    lastEditorGrant = key;
                }
                outcome = TortureChecker.Outcome.DONE;
            } else if (a.status() == 409) {
                count("refused");
                outcome = TortureChecker.Outcome.REFUSED;
                refusedLast = key; // what an editor refused would ask to be handed over
            } else {
                unexpected("acquire " + key, a);
            }
            record(
                    TortureChecker.Kind.ACQUIRE,
                    null,
                    key,
                    LockMode.valueOf(mode),
                    sent,
                    received,
                    outcome,
                    seen,
                    null,
                    null);
        }

        private void release() {
            if (held.isEmpty()) {
                acquire();
                return;
            }
            List<String> mine = new ArrayList<>(held.keySet());
            String key = mine.get(random.nextInt(mine.size()));
            Instant before = Instant.now();
            ApiClient.Answer a = api.release(key);
            Instant after = Instant.now();
            held.remove(key);
            boolean released = a.status() == 204;
            boolean notHeld =
                    a.status() == 404 || a.status() == 403 || (index == 0 && a.status() == 400);
            record(
                    TortureChecker.Kind.RELEASE,
                    null,
                    key,
                    null,
                    before,
                    after,
                    released
                            ? TortureChecker.Outcome.DONE
                            : notHeld ? TortureChecker.Outcome.REFUSED : unknownOr(a));
            if (released) {
                count("released");
            } else if (notHeld) {
                // lapsed and swept, or force-released, and perhaps taken by another (whom the admin
                // would need a
                // reason to release)
                count("already gone");
            } else {
                unexpected("release " + key, a);
            }
        }

        private void save() {
            String key =
                    held.entrySet().stream()
                            .filter(
                                    e ->
                                            e.getKey().matches("configurator:\\d+")
                                                    && e.getValue()[1] == LockMode.WRITE)
                            .map(Map.Entry::getKey)
                            .findFirst()
                            .orElse(null);
            if (key == null) {
                acquire();
                return;
            }
            String path = "api/configurators/" + key.substring("configurator:".length());
            ApiClient.Answer current = api.send("GET", path, null);
            if (current.status() != 200) {
                unexpected("read " + key, current);
                return;
            }
            Instant at = Instant.now();
            ApiClient.Answer a = api.send("PUT", path, current.body());
            Instant after = Instant.now();
            long token = (Long) held.get(key)[0];
            // Judged at the call's start at the earliest: a token accepted then was live then (a
            // token never lives again once ended, and the client held it before the call).
            boolean saved = a.status() == 200;
            record(
                    TortureChecker.Kind.SAVE,
                    null,
                    key,
                    null,
                    at,
                    after,
                    saved
                            ? TortureChecker.Outcome.DONE
                            : a.status() == 409 ? TortureChecker.Outcome.REFUSED : unknownOr(a),
                    null,
                    token,
                    saved ? at : null);
            if (saved) {
                count("saved");
            } else if (a.status() == 409) {
                count("save refused");
                held.remove(key);
            } else {
                unexpected("save " + key, a);
            }
        }

        private void heartbeat() {
            Instant before = Instant.now();
            ApiClient.Answer a = api.heartbeat();
            Instant after = Instant.now();
            Instant renewedBy = after.plus(RENEWAL_ROUND);
            grantingCalls.add(
                    new GrantCalls.Call(index + "/" + generation, null, before, renewedBy));
            record(
                    TortureChecker.Kind.RENEW,
                    null,
                    null,
                    null,
                    before,
                    renewedBy,
                    a.status() == 204 ? TortureChecker.Outcome.DONE : unknownOr(a));
            if (a.status() == 204) {
                count("heartbeat");
                lastBeat = after;
            } else {
                unexpected("heartbeat", a);
            }
        }

        // ---- hand-over ----

        /**
         * Asks whoever holds a key this session does not to hand it over: the key its last refused
         * acquire wanted, or any.
         */
        private void ask() {
            List<String> others = keys.stream().filter(k -> !held.containsKey(k)).toList();
            if (others.isEmpty()) {
                heartbeat();
                return;
            }
            String key =
                    refusedLast != null && !held.containsKey(refusedLast)
                            ? refusedLast
                            : others.get(random.nextInt(others.size()));
            refusedLast = null;
            Instant before = Instant.now();
            ApiClient.Answer a =
                    api.send(
                            "POST",
                            "api/locks/" + key + "/handover-requests",
                            "{\"note\":\"reliability torture\"}");
            if (a.status() == 201) {
                count("hand-over asked");
                Ask ask =
                        new Ask(
                                key,
                                a.json().getJsonNumber("id").longValue(),
                                index + "/" + generation,
                                before);
                myAsks.add(ask);
                asks.add(ask);
            } else if (a.status() == 409
                    && (a.body().contains("nobody-holds")
                            || a.body().contains("already-asked")
                            || a.body().contains("yours"))) {
                count("hand-over not asked"); // nothing written: nothing for the checker
            } else if (a.status() == 429 && a.body().contains("too-many")) {
                count("hand-over asks limited");
            } else {
                unexpected("ask for " + key, a);
            }
        }

        /**
         * Answers one open request for a key this session holds (WRITE), three times in four by
         * handing it over; true when it answered one.
         */
        private boolean answerAsk() {
            for (Ask ask : asks) {
                Object[] mine = held.get(ask.key);
                if (mine == null
                        || mine[1] != LockMode.WRITE
                        || ask.asker.equals(index + "/" + generation)
                        || !ask.state.compareAndSet(Ask.OPEN, Ask.CLAIMED)) {
                    continue;
                }
                boolean agree = random.nextInt(4) != 0;
                ApiClient.Answer a =
                        api.send(
                                "POST",
                                ask.path() + "/answer",
                                agree
                                        ? "{\"handOver\":true}"
                                        : "{\"handOver\":false,\"reply\":\"still editing\"}");
                Instant after = Instant.now();
                if (a.status() == 403 && a.body().contains("not-yours")
                        || a.status() == 404 && a.body().contains("\"unknown\"")) {
                    // another session of this person holds it (this one's lock ended meanwhile):
                    // the request is not this session's to answer
                    count("hand-over not this session's");
                    held.remove(ask.key);
                    ask.state.set(Ask.OPEN);
                    return true;
                }
                asks.remove(ask);
                TortureChecker.Kind kind =
                        agree
                                ? TortureChecker.Kind.HAND_OVER
                                : TortureChecker.Kind.HAND_OVER_REQUEST;
                TortureChecker.Outcome outcome;
                if (a.status() == 200 && agree) {
                    count("handed over");
                    held.remove(ask.key);
                    // the asker's grant: its token is learnt by the asker (settleAsks)
                    grantingCalls.add(new GrantCalls.Call(ask.asker, ask.key, ask.before, after));
                    outcome = TortureChecker.Outcome.UNKNOWN;
                } else if (a.status() == 200) {
                    count("hand-over declined");
                    outcome = TortureChecker.Outcome.DONE;
                } else if (a.status() == 409
                        && (a.body().contains("lock-ended")
                                || a.body().contains("not-open")
                                || a.body().contains("\"locked\""))) {
                    // the holder's lock ended first (the request with it), or another session's
                    // lock on the whole or a part stands in the asker's way: agreed, nothing
                    // changed, which the checker judges against the history
                    count("hand-over lock already ended or in the way");
                    held.remove(ask.key);
                    outcome = TortureChecker.Outcome.REFUSED;
                } else {
                    unexpected("answer to hand over " + ask.key, a);
                    outcome = unknownOr(a);
                }
                pending.add(
                        new Pending(
                                ask.asker,
                                kind,
                                null,
                                ask.key,
                                LockMode.WRITE,
                                ask.before,
                                after,
                                outcome,
                                null,
                                null,
                                null));
                ask.state.set(a.status() == 200 && agree ? Ask.HANDED : Ask.CLOSED);
                return true;
            }
            return false;
        }

        /**
         * The asker's side: takes note of a lock handed over to it, and withdraws a request that
         * waited longer than {@link #ASK_PATIENCE} ({@code all}: every request, waiting for one
         * being answered); true when it made a call.
         */
        private boolean settleAsks(boolean all) {
            boolean called = false;
            for (var it = myAsks.iterator(); it.hasNext(); ) {
                Ask ask = it.next();
                long waitUntil = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (all && ask.state.get() == Ask.CLAIMED && System.nanoTime() < waitUntil) {
                    sleep(5); // its holder is answering it
                }
                int state = ask.state.get();
                if (state == Ask.HANDED) {
                    it.remove();
                    learnHandedLock(ask.key);
                    called = true;
                } else if (state == Ask.CLOSED) {
                    it.remove();
                } else if (state == Ask.OPEN
                        && (all
                                || Duration.between(ask.before, Instant.now())
                                                .compareTo(ASK_PATIENCE)
                                        > 0)
                        && ask.state.compareAndSet(Ask.OPEN, Ask.CLAIMED)) {
                    asks.remove(ask);
                    it.remove();
                    ApiClient.Answer a = api.send("DELETE", ask.path(), null);
                    Instant after = Instant.now();
                    if (a.status() == 200) {
                        count("hand-over withdrawn");
                    } else if (a.status() == 409) {
                        count("hand-over ended with the lock"); // the holder's lock ended first
                    } else {
                        unexpected("withdraw the request for " + ask.key, a);
                    }
                    pending.add(
                            new Pending(
                                    ask.asker,
                                    TortureChecker.Kind.HAND_OVER_REQUEST,
                                    null,
                                    ask.key,
                                    LockMode.WRITE,
                                    ask.before,
                                    after,
                                    a.status() == 200
                                            ? TortureChecker.Outcome.DONE
                                            : TortureChecker.Outcome.REFUSED,
                                    null,
                                    null,
                                    null));
                    ask.state.set(Ask.CLOSED);
                    called = true;
                } else if (state == Ask.CLAIMED && all) {
                    unexpected.incrementAndGet();
                    samples.add("a request for " + ask.key + " still being answered after 30 s");
                }
            }
            return called;
        }

        /** The lock handed over to this session: its token, from the session's own locks. */
        private void learnHandedLock(String key) {
            ApiClient.Answer a = api.send("GET", "api/locks", null);
            Instant received = Instant.now();
            if (a.status() != 200) {
                unexpected("the locks of a session handed " + key, a);
                return;
            }
            JsonObject lock =
                    jakarta.json.Json.createReader(new java.io.StringReader(a.body()))
                            .readArray()
                            .getValuesAs(JsonObject.class)
                            .stream()
                            .filter(l -> l.getString("resource").equals(key))
                            .findFirst()
                            .orElse(null);
            if (lock == null) {
                count("handed lock gone at once"); // ended another way meanwhile
                return;
            }
            long token = lock.getJsonNumber("token").longValue();
            LockMode mode = LockMode.valueOf(lock.getString("mode"));
            grants.add(
                    new Seen(
                            index,
                            generation,
                            key,
                            mode,
                            Instant.parse(lock.getString("acquiredAt")),
                            Instant.parse(lock.getString("expiresAt")),
                            token,
                            received));
            held.put(key, new Object[] {token, mode});
        }

        private void forceRelease() {
            String key = keys.get(random.nextInt(keys.size()));
            if (held.containsKey(key)) {
                release();
                return;
            }
            Instant before = Instant.now();
            ApiClient.Answer a =
                    api.send(
                            "DELETE",
                            "api/locks/"
                                    + key
                                    + "?reason="
                                    + URLEncoder.encode(
                                            "reliability torture", StandardCharsets.UTF_8),
                            null);
            // 204: done, without saying which locks (judged by the history); 404: nobody held it.
            record(
                    TortureChecker.Kind.FORCE_RELEASE,
                    null,
                    key,
                    null,
                    before,
                    Instant.now(),
                    a.status() == 404 ? TortureChecker.Outcome.REFUSED : unknownOr(a));
            if (a.status() == 204) {
                count("force-released");
            } else if (a.status() == 404) {
                count("nothing to force");
            } else {
                unexpected("force release " + key, a);
            }
        }

        /**
         * The admin takes a key from whoever holds it, with a reason: half the time the key an
         * editor was granted last (a random key is mostly free, which takes nothing from anyone).
         */
        private void takeOver() {
            String last = lastEditorGrant;
            String key =
                    last != null && random.nextBoolean()
                            ? last
                            : keys.get(random.nextInt(keys.size()));
            Instant before = Instant.now();
            ApiClient.Answer a =
                    api.send(
                            "POST",
                            "api/locks/" + key + "/take-over",
                            "{\"reason\":\"reliability torture\"}");
            Instant after = Instant.now();
            grantingCalls.add(new GrantCalls.Call(index + "/" + generation, key, before, after));
            Seen seen = null;
            TortureChecker.Outcome outcome = unknownOr(a);
            if (a.status() == 200) {
                count("taken over");
                JsonObject lock = a.json();
                long token = lock.getJsonNumber("token").longValue();
                seen =
                        new Seen(
                                index,
                                generation,
                                key,
                                LockMode.valueOf(lock.getString("mode")),
                                Instant.parse(lock.getString("acquiredAt")),
                                Instant.parse(lock.getString("expiresAt")),
                                token,
                                after);
                grants.add(seen);
                held.put(key, new Object[] {token, LockMode.WRITE});
                outcome = TortureChecker.Outcome.DONE;
            } else if (a.status() == 409) {
                count("take-over refused");
                outcome = TortureChecker.Outcome.REFUSED;
            } else {
                unexpected("take over " + key, a);
                if (a.status() == 500) {
                    // the take-over is one transaction, rolled back by the failure: as in process,
                    // judged as refused, so the checker names what should have let it through
                    outcome = TortureChecker.Outcome.REFUSED;
                }
            }
            record(
                    TortureChecker.Kind.TAKE_OVER,
                    null,
                    key,
                    LockMode.WRITE,
                    before,
                    after,
                    outcome,
                    seen,
                    null,
                    null);
        }

        // ---- screens ----

        private void screenLogin() {
            browser = cluster.browser(index % cluster.size());
            for (int attempt = 1; !browser.page().contains("jakarta.faces.ViewState"); attempt++) {
                var page = browser.get("login.xhtml");
                if (!browser.page()
                        .contains(
                                "jakarta.faces.ViewState")) { // a fault in the container: try again
                    unexpected(
                            "open the login page",
                            new ApiClient.Answer(page.statusCode(), browser.page(), null, 0));
                    if (attempt == 3) {
                        return;
                    }
                }
            }
            var r =
                    browser.submit(
                            "login",
                            java.util.Map.of("login:username", user, "login:password", "demo"),
                            "login:submit");
            if (r.statusCode() != 200 || !browser.page().contains("data-testid=\"logout\"")) {
                unexpected(
                        "screen login",
                        new ApiClient.Answer(r.statusCode(), browser.page(), null, 0));
            }
            lastBeat = Instant.now();
        }

        private void screenLogout() {
            if (tab != null) {
                tab.closeStream();
                tab = null;
            }
            Instant before = Instant.now();
            int status = browser.post("api/logout").statusCode();
            Instant after = Instant.now();
            record(
                    TortureChecker.Kind.RELEASE_ALL,
                    null,
                    null,
                    null,
                    before,
                    after,
                    TortureChecker.Outcome.UNKNOWN);
            if (status == 204) {
                logouts.add(new Object[] {index, generation, before, after});
            } else {
                unexpected("screen logout", new ApiClient.Answer(status, browser.page(), null, 0));
            }
        }

        private void screenStep() {
            if (tab == null) {
                openTab();
                return;
            }
            if (tab.stream.endedByServer()) { // its node went away: the page's worker reconnects
                reopenStream();
                return;
            }
            if (tab.token == null) { // looking only: look a little, then close
                if (random.nextBoolean()) {
                    closeTab(random.nextBoolean());
                } else {
                    count("screen looked");
                }
                return;
            }
            if (Duration.between(lastBeat, Instant.now()).toMillis()
                    > Cluster.LEASE_SECONDS * 300L) {
                tabHeartbeat();
                return;
            }
            int dice = random.nextInt(100);
            if (dice < 35) {
                tabHeartbeat();
            } else if (dice < 60) {
                screenSave();
            } else if (dice < 70) {
                screenDone();
            } else if (dice < 85) {
                closeTab(true);
            } else if (dice < 97) {
                closeTab(false);
            } else {
                count("screen session ended");
                screenLogout();
                generation++;
                screenLogin();
            }
        }

        /** The record a page edits: {@code configurator.xhtml?id=3} → {@code configurator:3}. */
        private String keyOf(String page) {
            String id = page.substring(page.indexOf("id=") + 3);
            return page.startsWith("filters")
                    ? "item:" + id + ":filters"
                    : page.startsWith("variables")
                            ? "configurator:" + id + ":variables"
                            : "configurator:" + id;
        }

        /**
         * Opens the page of a random key (a whole configurator, its variables or an item's filters)
         * in a new tab.
         */
        private void openTab() {
            String key = keys.get(random.nextInt(keys.size()));
            String[] parts = key.split(":");
            String page =
                    parts[0].equals("item")
                            ? "filters.xhtml?id=" + parts[1]
                            : parts.length == 3
                                    ? "variables.xhtml?id=" + parts[1]
                                    : "configurator.xhtml?id=" + parts[1];
            Instant sent = Instant.now();
            var r = browser.get(page);
            Instant answered = Instant.now();
            grantingCalls.add(new GrantCalls.Call(index + "/" + generation, key, sent, answered));
            String html = browser.page();
            var view =
                    java.util.regex.Pattern.compile("data-view=\"([0-9a-f-]{36})\"").matcher(html);
            if (r.statusCode() != 200 || browser.liveAddress().isEmpty() || !view.find()) {
                unexpected("open " + page, new ApiClient.Answer(r.statusCode(), html, null, 0));
                record(
                        TortureChecker.Kind.ACQUIRE,
                        null,
                        key,
                        LockMode.WRITE,
                        sent,
                        answered,
                        TortureChecker.Outcome.UNKNOWN);
                return;
            }
            String tabView = view.group(1);
            boolean editing = html.contains("data-editing=\"true\"");
            Seen[] grantedToPage = new Seen[1];
            // The page's acquire, recorded once its answer is known (below): editing with the lock
            // it was given, or read-only (refused).
            Runnable recordOpen =
                    () ->
                            record(
                                    TortureChecker.Kind.ACQUIRE,
                                    tabView,
                                    key,
                                    LockMode.WRITE,
                                    sent,
                                    answered,
                                    !editing
                                            ? TortureChecker.Outcome.REFUSED
                                            : grantedToPage[0] == null
                                                    ? TortureChecker.Outcome.UNKNOWN
                                                    : TortureChecker.Outcome.DONE,
                                    grantedToPage[0],
                                    null,
                                    null);
            Instant received = Instant.now();
            PageStream connected;
            try {
                connected = browser.openStream(m -> {});
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                unexpected(
                        "open the stream of " + page,
                        new ApiClient.Answer(0, e.toString(), null, 0));
                recordOpen.run();
                return;
            }
            if (connected.status() != 200) {
                unexpected(
                        "open the stream of " + page,
                        new ApiClient.Answer(connected.status(), "", null, 0));
                connected.close();
                recordOpen.run();
                return;
            }
            Tab opened = new Tab(page, view.group(1), browser.liveAddress().get(), connected);
            if (html.contains("data-editing=\"true\"")) {
                var mine = browser.peek("api/locks");
                JsonObject lock =
                        mine.statusCode() != 200
                                ? null
                                : jakarta.json.Json.createReader(
                                                new java.io.StringReader(mine.body()))
                                        .readArray()
                                        .getValuesAs(JsonObject.class)
                                        .stream()
                                        .filter(l -> l.getString("resource").equals(key))
                                        .findFirst()
                                        .orElse(null);
                if (lock == null) { // force-released a moment after the grant: the page will say so
                    count("screen lock gone at once");
                } else {
                    opened.token = lock.getJsonNumber("token").longValue();
                    grantedToPage[0] =
                            new Seen(
                                    index,
                                    generation,
                                    key,
                                    LockMode.valueOf(lock.getString("mode")),
                                    Instant.parse(lock.getString("acquiredAt")),
                                    Instant.parse(lock.getString("expiresAt")),
                                    opened.token,
                                    received);
                    grants.add(grantedToPage[0]);
                    lastBeat = received;
                    count("screen editing");
                }
            } else {
                count("screen read-only");
            }
            recordOpen.run();
            tab = opened;
        }

        /**
         * Opens the tab's stream again through the proxy, as the page's worker does when its stream
         * ends (the node that carried it stopped): the tab carries on at another node.
         */
        private void reopenStream() {
            try {
                PageStream again =
                        PageStream.open(
                                tab.live,
                                browser.cookieHeader().orElse(null),
                                Duration.ofSeconds(10),
                                m -> {});
                if (again.status() != 200) {
                    again.close();
                    unexpected(
                            "reopen the stream of " + tab.page,
                            new ApiClient.Answer(again.status(), "", null, 0));
                    return;
                }
                tab.stream = again;
                count("stream reopened");
            } catch (java.io.IOException e) {
                unexpected(
                        "reopen the stream of " + tab.page,
                        new ApiClient.Answer(0, e.toString(), null, 0));
            }
        }

        private void tabHeartbeat() {
            Instant before = Instant.now();
            int status = browser.post("api/locks/heartbeat?view=" + tab.view).statusCode();
            Instant after = Instant.now();
            Instant renewedBy = after.plus(RENEWAL_ROUND);
            grantingCalls.add(
                    new GrantCalls.Call(index + "/" + generation, null, before, renewedBy));
            record(
                    TortureChecker.Kind.RENEW,
                    tab.view,
                    null,
                    null,
                    before,
                    renewedBy,
                    status == 204 ? TortureChecker.Outcome.DONE : TortureChecker.Outcome.UNKNOWN);
            if (status == 204) {
                count("screen heartbeat");
                lastBeat = after;
            } else {
                unexpected("tab heartbeat", new ApiClient.Answer(status, browser.page(), null, 0));
            }
        }

        /**
         * Save with a changed name (configurators) or as shown (variables, filters): saved, or
         * refused with the typed text still in the form.
         */
        private void screenSave() {
            String typed = "Typed by " + user + " " + index + "/" + operations.get();
            Map<String, String> fields =
                    tab.page.startsWith("configurator") ? Map.of("edit:name", typed) : Map.of();
            Instant before = Instant.now();
            browser.submit("edit", fields, "edit:save");
            Instant after = Instant.now();
            String html = browser.page();
            String key = keyOf(tab.page);
            boolean saved = html.contains("Saved \u201c");
            boolean refused = html.contains("What you typed is still in the form");
            if (tab.token != null) {
                record(
                        TortureChecker.Kind.SAVE,
                        tab.view,
                        key,
                        null,
                        before,
                        after,
                        saved
                                ? TortureChecker.Outcome.DONE
                                : refused
                                        ? TortureChecker.Outcome.REFUSED
                                        : TortureChecker.Outcome.UNKNOWN,
                        null,
                        tab.token,
                        saved ? before : null);
            }
            if (saved) { // Save also ends the tab's lock: the page says the same if it had ended
                record(
                        TortureChecker.Kind.RELEASE,
                        tab.view,
                        key,
                        null,
                        before,
                        after,
                        TortureChecker.Outcome.UNKNOWN);
            }
            if (saved) {
                count("screen saved");
                tab.token = null; // the page went to the list; the tab leaves the stream
                tab.closeStream();
                tab = null;
            } else if (html.contains("What you typed is still in the form")) {
                if (!fields.isEmpty() && !html.contains("value=\"" + typed + "\"")) {
                    unexpected(
                            "screen save refused and lost the typed name",
                            new ApiClient.Answer(200, html, null, 0));
                }
                count("screen save refused, input kept");
                tab.token = null;
            } else {
                unexpected("screen save", new ApiClient.Answer(200, html, null, 0));
            }
        }

        private void screenDone() {
            Instant before = Instant.now();
            browser.submit("edit", Map.of(), "edit:done");
            Instant after = Instant.now();
            // Done ends what the tab holds on its record; the page says the same if it had ended.
            record(
                    TortureChecker.Kind.RELEASE,
                    tab.view,
                    keyOf(tab.page),
                    null,
                    before,
                    after,
                    TortureChecker.Outcome.UNKNOWN);
            if (browser.page().contains("You are no longer editing")) {
                count("screen done");
            } else {
                unexpected("screen done", new ApiClient.Answer(200, browser.page(), null, 0));
            }
            tab.closeStream();
            tab = null;
        }

        /**
         * The tab goes: cut off (a crash, a lost network: no goodbye, the grace runs) or with its
         * goodbye.
         */
        private void closeTab(boolean cutOff) {
            Instant before = Instant.now();
            if (cutOff) {
                tab.closeStream();
                // The node notices and, after the grace, releases the tab's locks: a release of
                // the tab from the cut until the layer's bound.
                record(
                        TortureChecker.Kind.RELEASE_VIEW,
                        tab.view,
                        null,
                        null,
                        before,
                        before.plus(TAB_BOUND),
                        TortureChecker.Outcome.UNKNOWN);
                count("tab cut off");
                if (tab.token != null) {
                    causes.add(new Cause("was cut off", tab.token, before, before));
                }
            } else {
                int status = browser.post("tab-left?view=" + tab.view).statusCode();
                Instant after = Instant.now();
                tab.closeStream();
                record(
                        TortureChecker.Kind.RELEASE_VIEW,
                        tab.view,
                        null,
                        null,
                        before,
                        after,
                        TortureChecker.Outcome.UNKNOWN);
                if (status != 204) {
                    unexpected("tab left", new ApiClient.Answer(status, browser.page(), null, 0));
                }
                count("tab left");
                if (tab.token != null) {
                    causes.add(new Cause("said goodbye", tab.token, before, after));
                }
            }
            tab = null;
        }
    }
}
