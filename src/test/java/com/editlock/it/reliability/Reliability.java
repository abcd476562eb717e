package com.editlock.it.reliability;

import com.editlock.it.browser.Browser;
import com.editlock.it.browser.PageStream;
import com.editlock.it.node.ApiClient;
import com.editlock.it.node.Cluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * The faults, each against a running {@link Cluster}, each leaving the cluster as it found it (both
 * nodes up, the database up): the two-node torture, a node killed while its users hold locks, the
 * database stopped under load, and a node stopped with Ctrl-C (SIGTERM) while its users hold locks.
 * Used by {@code ReliabilityIT} (short forms, in {@code mvn verify}) and by {@code mvn
 * -Preliability} (the long forms, with a table of figures).
 */
public final class Reliability {

    /**
     * Each task a thread of its own: the tasks wait on each other, and on Java 25 (unlike 17) an
     * async task without an executor goes to the common pool, which has one worker on two cores.
     */
    private static final java.util.concurrent.ExecutorService ASYNC =
            java.util.concurrent.Executors.newCachedThreadPool(
                    Thread.ofPlatform().daemon().name("async-", 0).factory());

    private Reliability() {}

    // ---- node kill ----

    public record NodeKill(
            int locks, Duration allFreed, long survivorRequests, long survivorFailures) {}

    /**
     * Users on node 0 hold the locks (48 per session); all renew at once, then node 0 is killed
     * with {@code kill -9}. Node 1 keeps serving (a user there takes and releases other locks the
     * whole time), and every lock of the dead node must be gone within lease + sweep. Node 0 is
     * started again at the end.
     */
    public static NodeKill nodeKill(
            Cluster cluster, List<String> held, List<String> others, Runnable beforeKill)
            throws Exception {
        List<ApiClient> sessions = new java.util.concurrent.CopyOnWriteArrayList<>();
        AtomicBoolean beating = new AtomicBoolean(true);
        CompletableFuture<Void> heartbeats =
                CompletableFuture.runAsync(
                        () -> { // the users' pages keep their leases
                            while (beating.get()) {
                                sessions.forEach(ApiClient::heartbeat);
                                sleep(1_000);
                            }
                        });
        for (int i = 0;
                i < held.size();
                i += 48) { // 12 whole configurators with their sub-pages per session
            ApiClient s = cluster.api(0, Duration.ofSeconds(30));
            expect(s.login(i % 96 == 0 ? "sara" : "omar", "demo"), 200, "login on node 1");
            for (String key : held.subList(i, Math.min(held.size(), i + 48))) {
                expect(s.acquire(key, "WRITE"), 201, "acquire " + key);
            }
            sessions.add(s);
        }
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong requests = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        CompletableFuture<Void> survivor =
                CompletableFuture.runAsync(
                        () -> {
                            ApiClient s = cluster.api(1, Duration.ofSeconds(10));
                            if (s.login("ada", "demo").status() != 200) {
                                failures.incrementAndGet();
                            }
                            for (int i = 0; running.get(); i++) {
                                String key = others.get(i % others.size());
                                ApiClient.Answer a = s.acquire(key, "WRITE");
                                ApiClient.Answer r = s.release(key);
                                requests.addAndGet(2);
                                if ((a.status() != 201 && a.status() != 409)
                                        || (a.status() == 201 && r.status() != 204)) {
                                    failures.incrementAndGet();
                                }
                            }
                        });
        beforeKill.run();
        beating.set(false);
        heartbeats.join();
        for (ApiClient s : sessions) {
            expect(s.heartbeat(), 204, "heartbeat");
        }
        long killed = System.nanoTime();
        cluster.node(0).kill();
        Duration freed = null;
        while (freed == null && System.nanoTime() - killed < Duration.ofSeconds(60).toNanos()) {
            if (count(cluster, held) == 0) {
                freed = Duration.ofNanos(System.nanoTime() - killed);
            } else {
                Thread.sleep(50);
            }
        }
        Thread.sleep(1000); // the survivor keeps working a little after the last release
        running.set(false);
        survivor.join();
        cluster.startNode(0);
        return new NodeKill(held.size(), freed, requests.get(), failures.get());
    }

    // ---- database outage ----

    public record Outage(
            Duration down,
            ClusterTorture.Result load,
            long slowest503Millis,
            Duration healthDown,
            Duration healthUp,
            Duration firstGrants,
            Duration lapsedSwept) {}

    /**
     * The torture runs on both nodes while PostgreSQL is stopped for {@code down} and started
     * again: during the outage (and until {@link ClusterTorture#AFTER_OUTAGE} after the database
     * accepts connections again, never outside it) every call must be a {@code 503} with {@code
     * Retry-After} within 2 s and nothing may be granted twice (the checker judges the whole run);
     * afterwards each node must report {@code UP} again, grant again, and the sweep must remove the
     * leases that ran out during the outage — all without a restart.
     */
    public static Outage outage(
            Cluster cluster,
            List<String> keys,
            Duration down,
            int clients,
            long seed,
            Runnable duringOutage)
            throws Exception {
        ClusterTorture torture =
                new ClusterTorture(
                        cluster,
                        keys,
                        new ClusterTorture.Plan(
                                clients, Long.MAX_VALUE, down.plusSeconds(25), seed, true));
        CompletableFuture<ClusterTorture.Result> load =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return torture.run();
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        });
        List<String> probeKeys =
                cluster.addConfigurators(cluster.size()).stream()
                        .filter(k -> k.startsWith("configurator:") && k.split(":").length == 2)
                        .toList();
        Thread.sleep(5_000);
        torture.outageBegins();
        cluster.stopDatabase();
        long stopped = System.nanoTime();
        Duration healthDown = null;
        ApiClient monitor = new ApiClient(cluster.uri(0), Duration.ofSeconds(5));
        while (healthDown == null
                && System.nanoTime() - stopped < Duration.ofSeconds(10).toNanos()) {
            if (monitor.send("GET", "health/ready", null).status() == 503) {
                healthDown = Duration.ofNanos(System.nanoTime() - stopped);
            } else {
                Thread.sleep(50);
            }
        }
        duringOutage.run();
        Thread.sleep(
                Math.max(
                        0,
                        down.toMillis()
                                - Duration.ofNanos(System.nanoTime() - stopped).toMillis()));
        cluster.startDatabase(); // returns once it accepts connections
        torture.outageEnds();
        long back = System.nanoTime();
        Duration healthUp = null;
        Duration granted = null;
        Duration swept = null;
        boolean[] grantedOn = new boolean[cluster.size()];
        ApiClient[] probes = new ApiClient[cluster.size()];
        while ((healthUp == null || granted == null || swept == null)
                && System.nanoTime() - back < Duration.ofSeconds(90).toNanos()) {
            boolean allUp = true;
            for (int n = 0; n < cluster.size(); n++) {
                ApiClient health = new ApiClient(cluster.uri(n), Duration.ofSeconds(5));
                allUp &= health.send("GET", "health/ready", null).status() == 200;
                if (!grantedOn[n]) {
                    if (probes[n] == null) {
                        ApiClient p = cluster.api(n, Duration.ofSeconds(5));
                        if (p.login("ada", "demo").status() == 200) {
                            probes[n] = p;
                        }
                    }
                    if (probes[n] != null) {
                        String key =
                                probeKeys.get(
                                        n); // not the torture's: its checker owns every grant of
                        // those
                        ApiClient.Answer a = probes[n].acquire(key, "READ");
                        if (a.status() == 201 || a.status() == 409) {
                            grantedOn[n] = true;
                            probes[n].release(key);
                        }
                    }
                }
            }
            Duration since = Duration.ofNanos(System.nanoTime() - back);
            if (healthUp == null && allUp) {
                healthUp = since;
            }
            boolean allGranted = true;
            for (boolean g : grantedOn) {
                allGranted &= g;
            }
            if (granted == null && allGranted) {
                granted = since;
            }
            if (swept == null && lapsedLongAgo(cluster) == 0) {
                swept = since;
            }
            Thread.sleep(100);
        }
        for (ApiClient p : probes) {
            if (p != null) {
                p.logout();
            }
        }
        ClusterTorture.Result result = load.get();
        System.out.println(
                "Slowest 503: "
                        + torture.slowest503What()
                        + "; nodes alive: "
                        + java.util.stream.IntStream.range(0, cluster.size())
                                .mapToObj(n -> cluster.node(n).isAlive())
                                .toList()
                        + "; login pages: "
                        + java.util.stream.IntStream.range(0, cluster.size())
                                .mapToObj(
                                        n ->
                                                new ApiClient(cluster.uri(n), Duration.ofSeconds(5))
                                                                .send("GET", "login.xhtml", null)
                                                                .status()
                                                        + " "
                                                        + cluster.uri(n))
                                .toList());
        return new Outage(
                down, result, torture.slowest503Millis(), healthDown, healthUp, granted, swept);
    }

    // ---- Ctrl-C ----

    public record Shutdown(
            int locks, long releasedAtShutdown, long leftAfterShutdown, Duration restart) {}

    /**
     * Users on node 0 hold {@code held}; node 0 is stopped as Ctrl-C stops it (SIGTERM: Payara
     * shuts down, sessions end). What the shutdown released, what it left, and how long after the
     * node is started again every one is gone.
     */
    public static Shutdown ctrlC(Cluster cluster, List<String> held) throws Exception {
        ApiClient s = cluster.api(0, Duration.ofSeconds(30));
        expect(s.login("sara", "demo"), 200, "login");
        for (String key : held) {
            expect(s.acquire(key, "WRITE"), 201, "acquire " + key);
        }
        long mark = lastEvent(cluster);
        cluster.node(0).stop();
        long left = count(cluster, held);
        long released;
        try (Connection c = cluster.connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select count(*) from lock_event where id > ? and event_type = 'SESSION_ENDED'")) {
            ps.setLong(1, mark);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                released = rs.getLong(1);
            }
        }
        long restarting = System.nanoTime();
        cluster.startNode(0);
        Duration restart = Duration.ofNanos(System.nanoTime() - restarting);
        while (count(cluster, held)
                > 0) { // left by a shutdown that could not release: the sweep's, after the lease
            Thread.sleep(50);
        }
        return new Shutdown(held.size(), released, left, restart);
    }

    // ---- Tab churn ----

    public record Churn(
            long tabs,
            Map<String, Long> routes,
            long streamsRefused,
            long answersChecked,
            Duration slowestPush,
            List<String> corrupted,
            List<String> containerFailures) {

        /**
         * Nothing wrong: every stream opened, every answer right, no request failed inside the
         * container.
         */
        public boolean clean() {
            return streamsRefused == 0 && corrupted.isEmpty() && containerFailures.isEmpty();
        }

        public String summary() {
            return String.format(
                    Locale.ROOT,
                    "%,d tabs %s, %d streams refused, %,d answers checked, slowest lock news"
                            + " %d ms after the change, %d corrupted, %d container-failure lines"
                            + " in the node logs",
                    tabs,
                    routes,
                    streamsRefused,
                    answersChecked,
                    slowestPush.toMillis(),
                    corrupted.size(),
                    containerFailures.size());
        }
    }

    /**
     * How soon after a change of the watched record a churned page of it must hear of it (the admin
     * changes it without pause). Measured from the admin's first change that ended after the page's
     * stream opened, so a stalled admin is not taken for a page that was not told.
     */
    public static final Duration PUSH_BOUND = Duration.ofSeconds(3);

    /** How long the admin may make no change at all before the churn reports it. */
    public static final Duration ADMIN_STALL_BOUND = Duration.ofSeconds(30);

    /** How a churned tab ends (docs/live-channel.md). */
    public static final List<String> ROUTES =
            List.of(
                    "cut off",
                    "polite leave",
                    "open across a logout",
                    "open across Done",
                    "open across Save");

    /**
     * Tabs opening and ending by every route while every lock change is told to them: three
     * sessions open pages, each with its live stream, and end them in turn — cut off (no goodbye),
     * politely (the goodbye beacon), left open while the session logs out, left open while the
     * page's Done or Save navigates away — over and over, on both nodes, while an admin acquires
     * and releases the watched record (every change told to the open tabs) and three API clients
     * read {@code /api/locks}. Returns the answers that were not a lock list, pages of the watched
     * record that heard no news within {@link #PUSH_BOUND}, and the node logs' lines of requests
     * that failed inside the container.
     */
    /**
     * Waits for a churned page's first lock news: {@code null} when it came within {@link
     * #PUSH_BOUND} of the admin's first change that ended after the page's stream opened (the wait
     * noted in {@code slowest}), else what went wrong. {@code changes} counts the admin's changes;
     * {@code told} the page's lock news ({@code 1_000_000} and more: its tab was called unknown); a
     * page whose run ended before the admin's next change is not judged.
     */
    public static String toldInTime(
            AtomicLong told, AtomicLong changes, AtomicLong slowest, AtomicBoolean running) {
        long opened = System.nanoTime();
        long before = changes.get(); // a change counted later ended after the stream opened
        long changed = -1; // when that change was first seen to have ended
        while (told.get() == 0) {
            long now = System.nanoTime();
            if (changed < 0 && changes.get() > before) {
                changed = now;
            }
            if (changed >= 0 && now - changed > PUSH_BOUND.toNanos()) {
                return "no lock news reached a page of the watched record within "
                        + PUSH_BOUND.toMillis()
                        + " ms of a change (the admin made "
                        + (changes.get() - before)
                        + " changes since its stream opened "
                        + Duration.ofNanos(now - opened).toMillis()
                        + " ms ago)";
            }
            if (changed < 0 && !running.get()) {
                return null; // the run ended before the admin changed it again: nothing to judge
            }
            if (changed < 0 && now - opened > ADMIN_STALL_BOUND.toNanos()) {
                return "the admin changed nothing for " + ADMIN_STALL_BOUND.toSeconds() + " s";
            }
            sleep(5);
        }
        if (told.get() >= 1_000_000) {
            return "the page's own stream was told its tab is unknown";
        }
        if (changed >= 0) {
            long waited = System.nanoTime() - changed;
            slowest.accumulateAndGet(waited, Math::max);
        }
        return null;
    }

    public static Churn tabChurn(Cluster cluster, String watched, Duration during)
            throws Exception {
        String id = watched.split(":")[1];
        List<String> editable =
                cluster.addConfigurators(3).stream()
                        .filter(k -> k.matches("configurator:\\d+"))
                        .toList();
        long[] logFrom = {
            java.nio.file.Files.size(cluster.log(0)), java.nio.file.Files.size(cluster.log(1))
        };
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong tabs = new AtomicLong();
        Map<String, AtomicLong> routes = new java.util.concurrent.ConcurrentHashMap<>();
        AtomicLong refused = new AtomicLong();
        AtomicLong checked = new AtomicLong();
        java.util.concurrent.ConcurrentLinkedQueue<String> corrupted =
                new java.util.concurrent.ConcurrentLinkedQueue<>();
        AtomicLong changes = new AtomicLong(); // the admin's changes of the watched record so far
        AtomicLong slowestPush = new AtomicLong();
        List<CompletableFuture<Void>> work = new ArrayList<>();
        work.add(
                CompletableFuture.runAsync(
                        () -> {
                            ApiClient ada = cluster.api(0, Duration.ofSeconds(10));
                            ada.login("ada", "demo");
                            while (running.get()) {
                                // Nobody else takes the watched record: each answer is known.
                                ApiClient.Answer took = ada.acquire(watched, "WRITE");
                                changes.incrementAndGet();
                                ApiClient.Answer freed = ada.release(watched);
                                changes.incrementAndGet();
                                checked.addAndGet(2);
                                if (took.status() != 201 || freed.status() != 204) {
                                    corrupted.add(
                                            "the admin's acquire and release of the watched record"
                                                    + " answered "
                                                    + took.status()
                                                    + " and "
                                                    + freed.status());
                                }
                            }
                            ada.logout();
                        }));
        for (int t = 0; t < 3; t++) {
            int node = t % 2;
            String mine = editable.get(t).split(":")[1];
            work.add(
                    CompletableFuture.runAsync(
                            () -> {
                                Browser b = cluster.browser(node);
                                b.login("sara", "demo");
                                while (running.get()) {
                                    long n = tabs.incrementAndGet();
                                    String route = ROUTES.get((int) (n % ROUTES.size()));
                                    boolean editing =
                                            route.endsWith("Done") || route.endsWith("Save");
                                    b.get(
                                            editing
                                                    ? "configurator.xhtml?id=" + mine
                                                    : "configurator.xhtml?view=true&id=" + id);
                                    if (b.liveAddress().isEmpty()
                                            || editing
                                                    && !b.page()
                                                            .contains("data-editing=\"true\"")) {
                                        corrupted.add(
                                                "a page without its stream or its lock: "
                                                        + b.page()
                                                                .substring(
                                                                        0,
                                                                        Math.min(
                                                                                160,
                                                                                b.page()
                                                                                        .length())));
                                        b.login("sara", "demo");
                                        continue;
                                    }
                                    PageStream stream;
                                    AtomicLong told = new AtomicLong();
                                    try {
                                        // Only lock news counts (presence news would
                                        // come without any lock change); a stranger's
                                        // answer ("unknown") is no news but a fault.
                                        stream =
                                                b.openStream(
                                                        m ->
                                                                told.addAndGet(
                                                                        m.contains(
                                                                                        "\"type\":\"unknown\"")
                                                                                ? 1_000_000
                                                                                : m.contains(
                                                                                                "\"type\":\"lock\"")
                                                                                        ? 1
                                                                                        : 0));
                                    } catch (Exception e) {
                                        refused.incrementAndGet();
                                        continue;
                                    }
                                    if (stream.status() != 200) {
                                        refused.incrementAndGet();
                                        stream.close();
                                        continue;
                                    }
                                    if (!editing) { // the watched record changes all the time: its
                                        // open page must be told of the first change after its
                                        // stream opened, within the bound from that change
                                        String fault =
                                                toldInTime(told, changes, slowestPush, running);
                                        if (fault != null) {
                                            corrupted.add(route + ": " + fault);
                                        }
                                    }
                                    routes.computeIfAbsent(route, r -> new AtomicLong())
                                            .incrementAndGet();
                                    switch (route) {
                                        case "cut off" -> stream.close();
                                        case "polite leave" -> {
                                            b.post("tab-left?view=" + b.viewToken().orElseThrow());
                                            stream.close();
                                        }
                                        case "open across a logout" -> {
                                            b.post("api/logout"); // the session ends with the tab
                                            // open
                                            b.login("sara", "demo");
                                            stream.close();
                                        }
                                        default -> {
                                            var r =
                                                    b.submit(
                                                            "edit",
                                                            Map.of(),
                                                            route.endsWith("Done")
                                                                    ? "edit:done"
                                                                    : "edit:save");
                                            if (r.statusCode() != 200
                                                    || !b.page()
                                                            .contains(
                                                                    route.endsWith("Done")
                                                                            ? "You are no longer editing"
                                                                            : "Saved \u201c")) {
                                                corrupted.add(
                                                        route
                                                                + ": "
                                                                + r.statusCode()
                                                                + " "
                                                                + b.page()
                                                                        .substring(
                                                                                0,
                                                                                Math.min(
                                                                                        160,
                                                                                        b.page()
                                                                                                .length())));
                                            }
                                            stream.close();
                                        }
                                    }
                                }
                                b.post("api/logout");
                            }));
        }
        for (int t = 0; t < 3; t++) {
            int node = t % 2;
            work.add(
                    CompletableFuture.runAsync(
                            () -> {
                                ApiClient omar = cluster.api(node, Duration.ofSeconds(10));
                                omar.login("omar", "demo");
                                while (running.get()) {
                                    ApiClient.Answer a = omar.send("GET", "api/locks", null);
                                    checked.incrementAndGet();
                                    if (a.status() != 200
                                            || !a.body().startsWith("[")
                                            || a.body().contains("\"tab\":")
                                            || a.body().contains("{\"data\":")) {
                                        corrupted.add(
                                                a.status()
                                                        + " "
                                                        + a.body()
                                                                .substring(
                                                                        0,
                                                                        Math.min(
                                                                                120,
                                                                                a.body()
                                                                                        .length())));
                                    }
                                }
                                omar.logout();
                            },
                            ASYNC));
        }
        Thread.sleep(during.toMillis());
        running.set(false);
        for (CompletableFuture<Void> w : work) {
            w.get(60, java.util.concurrent.TimeUnit.SECONDS);
        }
        List<String> failures = new ArrayList<>(containerFailures(cluster.log(0), logFrom[0]));
        failures.addAll(containerFailures(cluster.log(1), logFrom[1]));
        Map<String, Long> byRoute = new java.util.TreeMap<>();
        routes.forEach((r, c) -> byRoute.put(r, c.get()));
        return new Churn(
                tabs.get(),
                byRoute,
                refused.get(),
                checked.get(),
                Duration.ofNanos(slowestPush.get()),
                List.copyOf(corrupted),
                failures);
    }

    /**
     * What a node log shows of a request failing inside the container: the container's own reports,
     * helpful NullPointerExceptions of its recycled objects ({@code Cannot invoke
     * "org.glassfish.grizzly…" because "…" is null}), and a completion run twice or on a request
     * that is no longer asynchronous.
     */
    public static final Pattern CONTAINER_FAILURE =
            Pattern.compile(
                    "An exception or error occurred in the container"
                            + "|GRIZZLY0013|Response Error during finishResponse|Must not use request object|WELD-000714"
                            + "|Cannot (invoke|read|assign|load|store)[^\"]*\"(org\\.glassfish|org\\.apache\\.(catalina|coyote))"
                            + "|IllegalStateException.*(omplet|ecycl|not in async|async.*(started|mode)|scope)");

    /**
     * What every clean two-node torture run must show: no request failed inside the container (the
     * node logs from {@code logsFrom}), every answer was one the API and the screens promise, no
     * violation, and every row of the history matched to the call that made it.
     */
    public static void requireClean(Cluster cluster, ClusterTorture.Result r, long[] logsFrom)
            throws java.io.IOException {
        List<String> failedInContainer = new java.util.ArrayList<>();
        for (int n = 0; n < logsFrom.length; n++) {
            failedInContainer.addAll(containerFailures(cluster.log(n), logsFrom[n]));
        }
        org.assertj.core.api.Assertions.assertThat(failedInContainer)
                .as("requests failing inside the container (node logs)")
                .isEmpty();
        org.assertj.core.api.Assertions.assertThat(r.samples())
                .as("every answer was one the API and the screens promise")
                .isEmpty();
        org.assertj.core.api.Assertions.assertThat(r.violations()).isEmpty();
        org.assertj.core.api.Assertions.assertThat(r.report().rowsMatched())
                .as("every row of the history matched to the call that made it")
                .isEqualTo(r.report().events());
    }

    /**
     * The lines of {@code log} written after byte {@code from} that show a request failing inside
     * the container.
     */
    public static List<String> containerFailures(java.nio.file.Path log, long from)
            throws java.io.IOException {
        try (java.nio.channels.FileChannel file = java.nio.channels.FileChannel.open(log);
                java.io.BufferedReader lines =
                        new java.io.BufferedReader(
                                new java.io.InputStreamReader(
                                        java.nio.channels.Channels.newInputStream(
                                                file.position(from)),
                                        java.nio.charset.StandardCharsets.UTF_8))) {
            return lines.lines().filter(line -> CONTAINER_FAILURE.matcher(line).find()).toList();
        }
    }

    // ---- helpers ----

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static long count(Cluster cluster, List<String> keys) throws Exception {
        try (Connection c = cluster.connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select count(*) from app_lock where resource_key = any (?)")) {
            ps.setArray(1, c.createArrayOf("varchar", keys.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * Locks whose lease ran out more than a sweep interval and a second ago, and are still there.
     */
    private static long lapsedLongAgo(Cluster cluster) {
        try (Connection c = cluster.connect();
                var s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "select count(*) from app_lock where expires_at < statement_timestamp() - make_interval(secs => "
                                        + (Cluster.SWEEP_SECONDS + 1)
                                        + ")")) {
            rs.next();
            return rs.getLong(1);
        } catch (Exception e) {
            return -1; // not back yet
        }
    }

    private static long lastEvent(Cluster cluster) throws Exception {
        try (Connection c = cluster.connect();
                var s = c.createStatement();
                ResultSet rs = s.executeQuery("select coalesce(max(id), 0) from lock_event")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void expect(ApiClient.Answer a, int status, String what) {
        if (a.status() != status) {
            throw new IllegalStateException(
                    what + ": expected " + status + ", got " + a.status() + " " + a.body());
        }
    }

    public static String millis(Duration d) {
        return d == null ? "never" : String.format(Locale.ROOT, "%,d ms", d.toMillis());
    }
}
