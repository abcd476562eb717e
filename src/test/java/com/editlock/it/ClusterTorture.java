package com.editlock.it;

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
 * The lock-store torture, over HTTP against a cluster: simulated users, half on each node, acquire
 * (WRITE and READ, whole configurators and their sub-pages), renew, save, release, log out and in
 * again (their sessions end), go quiet until their leases lapse, and an admin force-releases.
 * Afterwards the independent {@link TortureChecker} judges what the clients were told, with the
 * history: no conflicting grants, no save accepted on a dead token, no release without its grant,
 * the history adds up to {@code app_lock}, and no lock outlived its lease by more than the sweep
 * bound. Bounded by operations and by time.
 */
final class ClusterTorture {

    /**
     * {@code storeMayFail}: a database outage is part of the run, so 503 answers are expected (and
     * timed).
     */
    record Plan(
            int clients, long operations, Duration maxDuration, long seed, boolean storeMayFail) {}

    /**
     * {@code releaseDelays}: per layer, the worst time from the cause (a tab cut off, a tab's
     * goodbye, a logout) to the lock's end in the history; {@code layerViolations}: locks that
     * outlived their layer's bound (for a tab cut off {@link #TAB_BOUND}; for a goodbye or a logout
     * the call itself).
     */
    record Result(
            long operations,
            Map<String, Long> counts,
            long unexpected,
            List<String> samples,
            TortureChecker.Report report,
            Duration took,
            Map<String, Duration> releaseDelays,
            List<String> layerViolations) {

        /** Every violation: the checker's and the layers'. */
        List<String> violations() {
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
    private final ConcurrentLinkedQueue<Object[]> renewals =
            new ConcurrentLinkedQueue<>(); // client, gen, before, after
    private final ConcurrentLinkedQueue<Object[]> releases =
            new ConcurrentLinkedQueue<>(); // token, before, after

    /** Locks a screen left (Done, Save): the page does not say whether they were still held. */
    private final ConcurrentLinkedQueue<Object[]> leaves =
            new ConcurrentLinkedQueue<>(); // token, before, after

    private final ConcurrentLinkedQueue<Object[]> saves =
            new ConcurrentLinkedQueue<>(); // token, at
    private final ConcurrentLinkedQueue<Cause> causes = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Object[]> logouts =
            new ConcurrentLinkedQueue<>(); // client, gen, before, after

    /**
     * Every call that may grant or revive a lock, whatever it answered: client, gen, key (null: a
     * heartbeat), window.
     */
    private final ConcurrentLinkedQueue<GrantCalls.Call> grantingCalls =
            new ConcurrentLinkedQueue<>();

    ClusterTorture(Cluster cluster, List<String> keys, Plan plan) {
        this.cluster = cluster;
        this.keys = keys;
        this.plan = plan;
    }

    Result run() throws Exception {
        long mark;
        try (Connection c = cluster.connect();
                var s = c.createStatement();
                ResultSet rs = s.executeQuery("select coalesce(max(id), 0) from lock_event")) {
            rs.next();
            mark = rs.getLong(1);
        }
        long start = System.nanoTime();
        long deadline = start + plan.maxDuration().toNanos();
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
    static final Duration RENEWAL_ROUND = Duration.ofSeconds(2);

    /**
     * How soon a tab that was cut off must have lost its locks, from the cut: the node notices
     * within a keep-alive and its probes (1 s + 2 × 100 ms, {@code LiveStreams}), then the tab
     * grace runs, plus 1 s for a loaded machine. The lease is not this layer's bound (a lapsed
     * lease is the checker's own expiry check).
     */
    static final Duration TAB_BOUND =
            Duration.ofMillis(1_200).plusSeconds(Cluster.TAB_GRACE_SECONDS).plusSeconds(1);

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
                                + "'EXPIRED', 'FORCE_RELEASED', 'REACQUIRED')")) {
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
                                        + Cluster.TAB_GRACE_SECONDS
                                        + " s)"
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
        TortureChecker.Observations seen = new TortureChecker.Observations();
        Map<Long, Lock> lastLock = new HashMap<>();
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
            LockKey key = LockKey.parse(g.key());
            LockKey aggregate =
                    key.kind() == LockKey.Kind.ITEM_FILTERS
                            ? LockKey.configurator(itemToConfigurator.get(key.id()))
                            : LockKey.configurator(key.id());
            Instant renewedAt = firstSeen.add(g.token()) ? g.acquiredAt() : g.received();
            Lock lock =
                    new Lock(
                            key,
                            aggregate,
                            g.mode(),
                            owner,
                            null,
                            "user",
                            "User",
                            g.acquiredAt(),
                            renewedAt,
                            g.expiresAt(),
                            g.token());
            seen.granted(lock);
            lastLock.put(g.token(), lock);
        }
        for (Object[] r : renewals) {
            String owner = generationOwners.get(r[0] + "/" + r[1]);
            if (owner != null) {
                seen.renewed(owner, (Instant) r[2], (Instant) r[3], 1);
            }
        }
        for (Object[] r : releases) {
            seen.released((Long) r[0], (Instant) r[1], (Instant) r[2]);
        }
        for (Object[] r : leaves) {
            seen.left((Long) r[0], (Instant) r[1], (Instant) r[2]);
        }
        for (Object[] s : saves) {
            Lock lock = lastLock.get((Long) s[0]);
            if (lock != null) {
                seen.saved(lock, (Instant) s[1]);
            }
        }
        // No sweep runs while the database is down: then the bound is the whole run (the outage
        // figures say how soon
        // after the database returned the leases that ran out meanwhile were removed).
        Duration bound =
                plan.storeMayFail()
                        ? plan.maxDuration()
                        : Duration.ofSeconds(Cluster.SWEEP_SECONDS).plusSeconds(1);
        java.util.function.Function<LockKey, LockKey> aggregateOf =
                key ->
                        key.kind() == LockKey.Kind.ITEM_FILTERS
                                ? LockKey.configurator(itemToConfigurator.get(key.id()))
                                : LockKey.configurator(key.id());
        return new TortureChecker(
                        seen,
                        keys.stream().map(LockKey::parse).toList(),
                        aggregateOf,
                        Duration.ofSeconds(Cluster.LEASE_SECONDS),
                        mark,
                        false)
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

    long slowest503Millis() {
        return slowest503.get();
    }

    String slowest503What() {
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
    static final Duration AFTER_OUTAGE = Duration.ofSeconds(2);

    /**
     * The database is about to stop: from now on a 503 with {@code Retry-After} is the promised
     * answer.
     */
    void outageBegins() {
        outageFrom = System.nanoTime();
    }

    /**
     * The database accepts connections again: a call begun more than {@link #AFTER_OUTAGE} later
     * must not be a 503.
     */
    void outageEnds() {
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
        final PageStream stream;
        Long token;

        Tab(String page, String view, PageStream stream) {
            this.page = page;
            this.view = view;
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
        private Instant lastBeat = Instant.now();

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
            while (System.nanoTime() < deadline && operations.get() < plan.operations()) {
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
                screenLogout();
            } else {
                logout();
            }
        }

        private void logout() {
            Instant before = Instant.now();
            ApiClient.Answer a = api.logout();
            if (a.status() == 204) {
                logouts.add(new Object[] {index, generation, before, Instant.now()});
            }
        }

        private void login() {
            api = new ApiClient(cluster.uri(index % cluster.size()), Duration.ofSeconds(30));
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
            } else if (index == 0) {
                forceRelease();
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
            if (a.status() == 201) {
                count("acquired");
                JsonObject lock = a.json();
                long token = lock.getJsonNumber("token").longValue();
                LockMode granted = LockMode.valueOf(lock.getString("mode"));
                grants.add(
                        new Seen(
                                index,
                                generation,
                                key,
                                granted,
                                Instant.parse(lock.getString("acquiredAt")),
                                Instant.parse(lock.getString("expiresAt")),
                                token,
                                received));
                held.put(key, new Object[] {token, granted});
            } else if (a.status() == 409) {
                count("refused");
            } else {
                unexpected("acquire " + key, a);
            }
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
            Object[] h = held.remove(key);
            if (a.status() == 204) {
                count("released");
                releases.add(new Object[] {(Long) h[0], before, after});
            } else if (a.status() == 404
                    || a.status() == 403
                    || (index == 0 && a.status() == 400)) {
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
            if (a.status() == 200) {
                count("saved");
                saves.add(new Object[] {(Long) held.get(key)[0], at});
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
            if (a.status() == 204) {
                count("heartbeat");
                renewals.add(new Object[] {index, generation, before, renewedBy});
                lastBeat = after;
            } else {
                unexpected("heartbeat", a);
            }
        }

        private void forceRelease() {
            String key = keys.get(random.nextInt(keys.size()));
            if (held.containsKey(key)) {
                release();
                return;
            }
            ApiClient.Answer a =
                    api.send(
                            "DELETE",
                            "api/locks/"
                                    + key
                                    + "?reason="
                                    + URLEncoder.encode(
                                            "reliability torture", StandardCharsets.UTF_8),
                            null);
            if (a.status() == 204) {
                count("force-released");
            } else if (a.status() == 404) {
                count("nothing to force");
            } else {
                unexpected("force release " + key, a);
            }
        }

        // ---- screens ----

        private void screenLogin() {
            browser = new Browser(cluster.uri(index % cluster.size()));
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
            if (status == 204) {
                logouts.add(new Object[] {index, generation, before, Instant.now()});
            } else {
                unexpected("screen logout", new ApiClient.Answer(status, browser.page(), null, 0));
            }
        }

        private void screenStep() {
            if (tab == null) {
                openTab();
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
            grantingCalls.add(
                    new GrantCalls.Call(index + "/" + generation, key, sent, Instant.now()));
            String html = browser.page();
            var view =
                    java.util.regex.Pattern.compile("data-view=\"([0-9a-f-]{36})\"").matcher(html);
            if (r.statusCode() != 200 || browser.liveAddress().isEmpty() || !view.find()) {
                unexpected("open " + page, new ApiClient.Answer(r.statusCode(), html, null, 0));
                return;
            }
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
                return;
            }
            if (connected.status() != 200) {
                unexpected(
                        "open the stream of " + page,
                        new ApiClient.Answer(connected.status(), "", null, 0));
                connected.close();
                return;
            }
            Tab opened = new Tab(page, view.group(1), connected);
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
                    grants.add(
                            new Seen(
                                    index,
                                    generation,
                                    key,
                                    LockMode.valueOf(lock.getString("mode")),
                                    Instant.parse(lock.getString("acquiredAt")),
                                    Instant.parse(lock.getString("expiresAt")),
                                    opened.token,
                                    received));
                    lastBeat = received;
                    count("screen editing");
                }
            } else {
                count("screen read-only");
            }
            tab = opened;
        }

        private void tabHeartbeat() {
            Instant before = Instant.now();
            int status = browser.post("api/locks/heartbeat?view=" + tab.view).statusCode();
            Instant after = Instant.now();
            Instant renewedBy = after.plus(RENEWAL_ROUND);
            grantingCalls.add(
                    new GrantCalls.Call(index + "/" + generation, null, before, renewedBy));
            if (status == 204) {
                count("screen heartbeat");
                renewals.add(new Object[] {index, generation, before, renewedBy});
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
            if (html.contains("Saved \u201c")) {
                count("screen saved");
                saves.add(new Object[] {tab.token, before});
                leaves.add(
                        new Object[] {
                            tab.token, before, after
                        }); // the page says the same if it ended before
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
            if (browser.page().contains("You are no longer editing")) {
                count("screen done");
                if (tab.token
                        != null) { // "no longer editing" also when an admin or the lease ended it a
                    // moment before
                    leaves.add(new Object[] {tab.token, before, after});
                }
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
                count("tab cut off");
                if (tab.token != null) {
                    causes.add(new Cause("was cut off", tab.token, before, before));
                }
            } else {
                int status = browser.post("tab-left?view=" + tab.view).statusCode();
                Instant after = Instant.now();
                tab.closeStream();
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
