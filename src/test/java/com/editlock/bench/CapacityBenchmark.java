package com.editlock.bench;

import com.editlock.it.browser.Browser;
import com.editlock.it.browser.PageStream;
import com.editlock.it.node.Cluster;
import com.editlock.it.node.NodeHeap;
import com.editlock.launcher.PayaraNode;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many open editing tabs one node holds, and what they cost it: simulated tabs, each an edit
 * page opened in a session of its own browser ({@code GET configurator.xhtml?id=…}: the lock taken,
 * the page rendered), {@value #TABS_PER_SESSION} tabs per session sharing one live stream and one
 * heartbeat every 5 s naming all of them, as a browser's shared worker does ({@code POST
 * /api/locks/heartbeat?view=…&view=…}). At each level, with every tab open and beating: the node's
 * heap after a full collection and its CPU, both per open tab (against the node before any tab
 * opened); the heartbeats the load driver kept up with; the edit page's latency for one more user;
 * a release reaching 100 open pages of one record. One Payara Micro node ({@code -Xmx1g}), the
 * product's lease, sweep and tab grace; the load driver runs on the same cores.
 */
public final class CapacityBenchmark {

    public static final int TABS_PER_SESSION = 50;
    public static final int LIST_PAGES = 1000;

    /** A browser's beat at the product's defaults (a quarter of the 10 s lease). */
    private static final Duration BEAT = Duration.ofSeconds(2);

    /** Browsers per person: one person holds at most 48 streams over all their sessions. */
    private static final int SESSIONS_PER_PERSON = 40;

    private CapacityBenchmark() {}

    /**
     * One browser: a session, its open editing tabs, and the one stream that carries them. Once its
     * tabs are open it keeps its cookies, not its HTTP clients: its beats go through one client
     * shared by all ({@link Beats}).
     */
    private static final class Session {
        final Browser browser;
        final URI base;

        /** Its open tabs, so far: it beats for them from the first one on, as a browser does. */
        final List<String> tabs = new CopyOnWriteArrayList<>();

        PageStream stream;
        String cookie;

        Session(URI base) {
            this.base = base;
            this.browser = new Browser(base);
        }
    }

    /** What one level measured, and its row of the table. */
    private record Level(
            List<String> row,
            double heapPerTab,
            double cpuPerTab,
            double livenessPerNode,
            List<Long> page,
            List<Long> fanOut,
            Map<String, Long> classes,
            long held,
            String state) {

        /** The targets this level misses, each with its figure; empty when it meets them all. */
        List<String> missed(int level) {
            List<String> missed = new ArrayList<>();
            double p99 = at(page, 0.99) / 1000.0;
            if (p99 > 200) {
                missed.add("edit page p99 " + Report.number(p99) + " ms (target ≤ 200 ms)");
            }
            double push = at(fanOut, 0.99) / 1000.0;
            if (push > 1000) {
                missed.add(
                        "a release reaching its record's pages p99 "
                                + Report.number(push)
                                + " ms (target ≤ 1,000 ms)");
            }
            if (livenessPerNode > 1.0) {
                missed.add(
                        "liveness "
                                + Report.number(livenessPerNode)
                                + " statements per node a second (target ≤ 1)");
            }
            if (heapPerTab > 20) {
                missed.add("heap " + Report.number(heapPerTab) + " KB per tab (target ≤ 20 KB)");
            }
            if (held != level) {
                missed.add(String.format("%,d locks held for %,d open tabs", held, level));
            }
            return missed;
        }
    }

    /** The product's defaults (the test cluster's shorter lease and sweep put back). */
    private static final List<String> NODE_SETTINGS =
            List.of(
                    "-Xmx1g",
                    "-Dlocks.lease.seconds=" + com.editlock.platform.Settings.DEFAULT_LEASE_SECONDS,
                    "-Dlocks.sweep.seconds=" + com.editlock.platform.Settings.DEFAULT_SWEEP_SECONDS,
                    "-Dlocks.session.timeout.seconds=1800");

    public static void run(Report report, boolean quick) throws Exception {
        String asked = System.getProperty("bench.capacity.tabs", "");
        int[] levels =
                Arrays.stream(
                                (asked.isBlank()
                                                ? quick ? "500,1000" : "10000,20000,50000,100000"
                                                : asked)
                                        .split(","))
                        .mapToInt(Integer::parseInt)
                        .toArray();
        int most = Arrays.stream(levels).max().orElseThrow();
        List<List<String>> rows = new ArrayList<>();
        String profile = "";
        List<Long> lists = List.of();
        Charts.Series heapLine = new Charts.Series("node heap per open tab, KB");
        Charts.Series cpuLine = new Charts.Series("node CPU per open tab, µs per s");
        Level top = null;
        int topLevel = 0;
        String gaveWay = null;
        String freed = "";
        try (Cluster cluster = Cluster.start(1, "capacity", NODE_SETTINGS)) {
            Load load = new Load(cluster, most, quick, "cap");
            try {
                for (int level : levels) {
                    Level reached;
                    try {
                        reached = load.measure(level, String.format("%,d", level));
                    } catch (Exception | Error e) {
                        gaveWay =
                                String.format(
                                        "%,d open tabs could not be reached: %s (%s)",
                                        level, e, load.state());
                        System.out.println("Capacity: " + gaveWay);
                        break;
                    }
                    rows.add(reached.row());
                    heapLine.add(level, reached.heapPerTab());
                    cpuLine.add(level, reached.cpuPerTab());
                    System.out.printf(
                            "Heap grown with %,d open tabs, by class:%n%s%n",
                            level, NodeHeap.growth(load.emptyClasses, reached.classes(), 80));
                    List<String> missed = reached.missed(level);
                    if (!missed.isEmpty()) {
                        gaveWay =
                                String.format(
                                        "%,d open tabs: %s (%s)",
                                        level, String.join("; ", missed), reached.state());
                        System.out.println("Capacity: " + gaveWay);
                        break;
                    }
                    try { // at each level that held: after one that gave way it tells nothing
                        lists =
                                listFanOut(
                                        cluster.uri(0),
                                        load.ids.get(most),
                                        LIST_PAGES / TABS_PER_SESSION,
                                        quick ? 3 : 10);
                    } catch (Exception | Error e) {
                        gaveWay =
                                String.format(
                                        "%,d open tabs: a release reaching %,d open list pages:"
                                                + " %s (%s)",
                                        level, LIST_PAGES, e, load.state());
                        System.out.println("Capacity: " + gaveWay);
                        break;
                    }
                    top = reached;
                    topLevel = level;
                }
                if (top != null) {
                    profile = NodeHeap.growth(load.emptyClasses, top.classes());
                }
                try {
                    freed = load.closeAndAwaitFreed(cluster.uri(0));
                } catch (Exception | Error e) {
                    if (gaveWay == null) {
                        throw e; // a node that held every level must free every lock
                    }
                    freed =
                            "After the level that gave way, whether every lock was freed could not"
                                    + " be told: "
                                    + e;
                }
                System.out.println("Capacity: " + freed);
            } finally {
                load.close();
            }
        }
        if (top == null) {
            throw new IllegalStateException("Capacity: not even the first level held: " + gaveWay);
        }
        Level split;
        try (Cluster cluster = Cluster.start(2, "capacity-split", NODE_SETTINGS)) {
            Load load = new Load(cluster, levels[0], quick, "split");
            try {
                split = load.measure(levels[0], String.format("%,d on 2 nodes", levels[0]));
                rows.add(split.row());
            } finally {
                load.close();
            }
        }
        report.target(
                String.format(
                        "liveness statements per node per second, %,d open tabs over HTTP"
                                + " (pg_stat_statements)",
                        topLevel),
                "≤ 1",
                Report.number(top.livenessPerNode()),
                top.livenessPerNode() <= 1.0);
        report.target(
                String.format(
                        "liveness statements per node per second, %,d tabs over 2 nodes",
                        levels[0]),
                "≤ 1",
                Report.number(split.livenessPerNode()),
                split.livenessPerNode() <= 1.0);
        report.target(
                String.format("node heap per idle open editing tab, %,d tabs", topLevel),
                "≤ 20 KB",
                Report.number(top.heapPerTab()) + " KB",
                top.heapPerTab() <= 20);
        double p99 = at(top.page(), 0.99) / 1000.0;
        report.target(
                String.format("edit page p99 with %,d tabs open", topLevel),
                "≤ 200 ms",
                Report.number(p99) + " ms",
                p99 <= 200);
        double push = at(top.fanOut(), 0.99) / 1000.0;
        report.target(
                String.format("a release reaching a record's open pages, p99, %,d tabs", topLevel),
                "≤ 1,000 ms",
                Report.number(push) + " ms",
                push <= 1000);
        double listPush = at(lists, 0.99) / 1000.0;
        report.target(
                String.format(
                        "a release reaching %,d open list pages, p99, %,d tabs",
                        LIST_PAGES, topLevel),
                "≤ 1,000 ms",
                Report.number(listPush) + " ms",
                listPush <= 1000);
        report.heading("8. Capacity: open editing tabs per node");
        report.text(
                String.format(
                        """
                Simulated tabs on one Payara Micro node (`-Xmx1g`, the product's defaults: 10 s lease, 2 s
                sweep, 1.3 s tab grace): each tab is an edit page opened in a logged-in session (`GET
                configurator.xhtml?id=…`, its own configurator, so its own lock), %d tabs per session sharing
                one live stream and one heartbeat request every %d s that names all of them, as a browser's
                shared worker does; %d sessions per person (one person holds at most 48 streams). The ladder
                goes up until a level misses a target (edit page p99 ≤ 200 ms, a release reaching its record's
                pages p99 ≤ 1 s, liveness ≤ 1 statement per node a second, heap ≤ 20 KB per tab, every open
                tab's lock held) or cannot be reached. With every tab open and beating: the heartbeat requests
                a second, the lease renewals the database ran a second (its own count, `pg_stat_statements`),
                the tab beats they delivered against those due (*late*: more than a second behind), the node's
                heap after a full collection, per tab against the node before any tab opened, the node's CPU
                (its process, `/proc`) and per tab, its threads and file descriptors, the renewal statement's
                mean time in the database, the edit page for one more user (p50 / p99 ms), and a release
                reaching 100 open read-only pages of one record, each its own session and stream (p50 / p99
                ms). The load driver shares the 2 cores, so its cost is in every figure: while opening, Java's
                HTTP client per browser; then one shared client for the beats and a virtual thread per stream,
                so that its own threads are not the limit. The last row opens the first level over two nodes of
                one cluster (browsers alternate between them; heap and CPU per node, the pages of the push
                spread over both): liveness then costs one statement a second per node.""",
                        TABS_PER_SESSION, BEAT.toSeconds(), SESSIONS_PER_PERSON));
        report.table(
                List.of(
                        "open tabs",
                        "sessions",
                        "opened in s",
                        "heartbeat requests/s",
                        "liveness statements/s",
                        "tab beats/s delivered",
                        "late / failed beats",
                        "node heap MB",
                        "heap KB per tab",
                        "node CPU",
                        "CPU µs/s per tab",
                        "threads / fds",
                        "renewal ms (mean)",
                        "edit page ms",
                        "release → 100 pages ms"),
                rows);
        report.text(
                gaveWay == null
                        ? String.format(
                                "**No target gave way up to %,d open tabs**, the top of the ladder.",
                                topLevel)
                        : "**The first to give way:** " + gaveWay + ".");
        report.text(freed + ".");
        report.chart(
                "capacity-per-tab",
                "What one open editing tab costs the node",
                "open editing tabs",
                "KB / µs per s",
                false,
                List.of(heapLine, cpuLine));
        report.text(
                String.format(
                        "With the most tabs open, %,d list pages (%d browsers of %d list tabs, a"
                                + " stream each) hear of a release on the node: p50 %s ms, p99 %s"
                                + " ms, the last of them %s ms (from the release's request to each"
                                + " tab's message).",
                        LIST_PAGES,
                        LIST_PAGES / TABS_PER_SESSION,
                        TABS_PER_SESSION,
                        ms(lists, 0.5),
                        ms(lists, 0.99),
                        ms(lists, 1.0)));
        report.text(
                "What the heap grew by with the most tabs open, by class (after a full collection,"
                        + " against the node before any tab opened):\n\n```\n"
                        + profile
                        + "\n```");
    }

    /**
     * A cluster under load: its nodes' heaps and CPU before any tab opened, the browsers opened so
     * far (their sessions spread over the nodes in turn) and their heartbeats.
     */
    private static final class Load implements AutoCloseable {
        final Cluster cluster;
        final boolean quick;
        final List<NodeHeap> heaps = new ArrayList<>();
        final List<PayaraNode> nodes = new ArrayList<>();
        final long[] emptyHeap;
        final double[] emptyCpu;
        final Map<String, Long> emptyClasses;
        final List<Long> ids;
        final List<Session> sessions = new CopyOnWriteArrayList<>();
        final List<String> allTabs = new CopyOnWriteArrayList<>();
        final Beats beats = new Beats(sessions);

        final List<String> people;

        Load(Cluster cluster, int most, boolean quick, String prefix) throws Exception {
            this.cluster = cluster;
            this.quick = quick;
            try (java.sql.Connection c = cluster.connect()) {
                people = People.add(c, prefix, most / (TABS_PER_SESSION * SESSIONS_PER_PERSON) + 1);
            }
            for (int n = 0; n < cluster.size(); n++) {
                nodes.add(cluster.node(n));
                heaps.add(NodeHeap.listeningOn(cluster.node(n).port()));
            }
            ids =
                    cluster.addConfigurators(most + 1).stream()
                            .filter(k -> k.matches("configurator:\\d+"))
                            .map(k -> Long.parseLong(k.substring("configurator:".length())))
                            .toList();
            emptyHeap = new long[heaps.size()];
            for (int n = 0; n < heaps.size(); n++) {
                emptyHeap[n] = heaps.get(n).usedAfterGc();
            }
            emptyClasses = heaps.get(0).histogram();
            emptyCpu = cpuPerSecond(heaps, Duration.ofSeconds(quick ? 5 : 15));
            beats.start();
        }

        /** Opens tabs up to {@code level} and measures the cluster with all of them beating. */
        Level measure(int level, String label) throws Exception {
            resetStatements(cluster); // a level that gives way while opening says what it cost
            long opening = System.nanoTime();
            open(n -> cluster.uri(n % nodes.size()), people, ids, sessions, allTabs, level);
            double openSeconds = (System.nanoTime() - opening) / 1e9;
            long held = locksHeld(cluster.uri(0));
            require(held >= level, "only " + held + " of " + level + " open tabs hold their lock");
            TimeUnit.SECONDS.sleep(quick ? 3 : 10); // every tab beats once or twice
            long late0 = beats.late.get();
            long requests0 = beats.requests.get();
            long sent0 = beats.sent.get();
            long failed0 = beats.failed.get();
            resetStatements(cluster);
            long window0 = System.nanoTime();
            double[] cpu = cpuPerSecond(heaps, Duration.ofSeconds(quick ? 5 : 20));
            double windowSeconds = (System.nanoTime() - window0) / 1e9;
            Renewals renewals = renewals(cluster);
            double liveness = renewals.calls() / windowSeconds;
            double renewalMillis = renewals.meanMillis();
            double beatRate = (beats.sent.get() - sent0) / windowSeconds;
            double requestRate = (beats.requests.get() - requests0) / windowSeconds;
            long late = beats.late.get() - late0;
            long failed = beats.failed.get() - failed0;
            long[] used = new long[heaps.size()];
            long grown = 0;
            double cpuGrown = 0;
            for (int n = 0; n < heaps.size(); n++) {
                used[n] = heaps.get(n).usedAfterGc();
                grown += used[n] - emptyHeap[n];
                cpuGrown += cpu[n] - emptyCpu[n];
            }
            Map<String, Long> classes = heaps.get(0).histogram();
            List<Long> page = editPage(cluster.uri(0), ids.get(ids.size() - 1), quick ? 30 : 100);
            List<Long> fanOut =
                    PageBenchmarks.fanOut(
                            nodes.get(0),
                            nodes,
                            ids.get(ids.size() - 1).intValue(),
                            100,
                            quick ? 5 : 10);
            double heapPerTab = grown / 1024.0 / level;
            double cpuPerTab = cpuGrown * 1e6 / level;
            List<String> row =
                    List.of(
                            label,
                            String.format("%,d", sessions.size()),
                            Report.number(openSeconds),
                            Report.number(requestRate),
                            Report.number(liveness),
                            String.format(
                                    "%s of %s",
                                    Report.number(beatRate),
                                    Report.number(level / (double) BEAT.toSeconds())),
                            String.format("%,d / %,d", late, failed),
                            Arrays.stream(used)
                                    .mapToObj(u -> String.format("%,d", u / 1024 / 1024))
                                    .collect(java.util.stream.Collectors.joining(" + ")),
                            String.format("**%s**", Report.number(heapPerTab)),
                            Arrays.stream(cpu)
                                    .mapToObj(c -> String.format("%.0f %%", c * 100))
                                    .collect(java.util.stream.Collectors.joining(" + ")),
                            Report.number(cpuPerTab),
                            threadsAndFds(),
                            Report.number(renewalMillis),
                            ms(page, 0.5) + " / " + ms(page, 0.99),
                            ms(fanOut, 0.5) + " / " + ms(fanOut, 0.99));
            return new Level(
                    row,
                    heapPerTab,
                    cpuPerTab,
                    liveness / nodes.size(),
                    page,
                    fanOut,
                    classes,
                    locksHeld(cluster.uri(0)),
                    state());
        }

        /** The node's threads and open file descriptors, each node's. */
        String threadsAndFds() throws java.io.IOException {
            List<String> each = new ArrayList<>();
            for (NodeHeap h : heaps) {
                each.add(String.format("%,d / %,d", h.threads(), h.fileDescriptors()));
            }
            return String.join(" + ", each);
        }

        /**
         * What the first node looks like now, for a level that gave way: its heap against its
         * maximum, threads, descriptors, the driver's sessions and the beats it kept up with.
         */
        String state() {
            try {
                Renewals renewals = renewals(cluster);
                return String.format(
                        "node 1: heap %s, threads / fds %s; %,d sessions open, %,d beats late,"
                                + " %,d failed; the database: %,d renewal rounds since the level"
                                + " began to open, %s ms on average, the longest %s ms; %,d locks expired"
                                + " in all",
                        heaps.get(0).heapInfo(),
                        threadsAndFds(),
                        sessions.size(),
                        beats.late.get(),
                        beats.failed.get(),
                        renewals.calls(),
                        Report.number(renewals.meanMillis()),
                        Report.number(renewals.maxMillis()),
                        expired(cluster));
            } catch (Exception | Error e) {
                return "the node's state could not be read: " + e;
            }
        }

        /**
         * Closes every stream, as every browser crashing at once would, and says how soon the node
         * had freed every lock (each tab's grace run out, its locks released): a ghost is a lock
         * still held 30 s after.
         */
        String closeAndAwaitFreed(URI base) throws Exception {
            beats.stop();
            long held = locksHeld(base);
            long closed = System.nanoTime();
            for (Session s : sessions) {
                if (s.stream != null) {
                    s.stream.close();
                }
            }
            long left = held;
            while (left > 0 && System.nanoTime() - closed < TimeUnit.SECONDS.toNanos(30)) {
                TimeUnit.MILLISECONDS.sleep(100);
                left = locksHeld(base);
            }
            double seconds = (System.nanoTime() - closed) / 1e9;
            require(
                    left == 0,
                    String.format(
                            "%,d of %,d locks were still held 30 s after their"
                                    + " streams closed (ghosts)",
                            left, held));
            return String.format(
                    "All %,d streams closed at once (every browser crashing together): the node had"
                            + " freed all %,d locks after %s s, no ghost left",
                    sessions.size(), held, Report.number(seconds));
        }

        @Override
        public void close() throws InterruptedException {
            beats.stop();
            for (Session s : sessions) {
                if (s.stream != null) {
                    s.stream.close();
                }
            }
        }
    }

    /** Opens sessions and tabs until {@code level} tabs are open, each session then its stream. */
    private static void open(
            java.util.function.IntFunction<URI> nodeOf,
            List<String> people,
            List<Long> ids,
            List<Session> sessions,
            List<String> allTabs,
            int level)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> opened = new ArrayList<>();
            int from = allTabs.size();
            for (int first = from; first < level; first += TABS_PER_SESSION) {
                int start = first;
                int end = Math.min(level, first + TABS_PER_SESSION);
                opened.add(
                        pool.submit(
                                () -> {
                                    int session = start / TABS_PER_SESSION;
                                    Session s = new Session(nodeOf.apply(session));
                                    String person = people.get(session / SESSIONS_PER_PERSON);
                                    require(
                                            s.browser.login(person, "demo").statusCode() == 200,
                                            "login");
                                    // It beats from its first tab on: a tab not beating for the
                                    // lease (10 s) while the session's other tabs open would lapse.
                                    s.cookie = s.browser.cookieHeader().orElseThrow();
                                    sessions.add(s);
                                    for (int i = start; i < end; i++) {
                                        HttpResponse<String> page =
                                                s.browser.get(
                                                        "configurator.xhtml?id=" + ids.get(i));
                                        require(
                                                page.statusCode() == 200
                                                        && s.browser
                                                                .testId("lock-status")
                                                                .orElse("")
                                                                .equals("You are editing"),
                                                "an edit page did not open for editing");
                                        s.tabs.add(s.browser.viewToken().orElseThrow());
                                    }
                                    String live = s.browser.liveAddress().orElseThrow().toString();
                                    URI all =
                                            URI.create(
                                                    live.substring(0, live.indexOf("?tabs="))
                                                            + "?tabs="
                                                            + String.join(",", s.tabs));
                                    s.stream =
                                            PageStream.open(
                                                    all,
                                                    s.browser.cookieHeader().orElseThrow(),
                                                    Duration.ofSeconds(10),
                                                    m -> {});
                                    require(s.stream.status() == 200, "a stream was refused");
                                    s.browser.close(); // the beats share one client
                                    allTabs.addAll(s.tabs);
                                    return null;
                                }));
            }
            for (Future<?> f : opened) {
                f.get(30, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Every browser (session) beats every {@link #BEAT} for all its open tabs in one request, as
     * its shared worker does, the browsers spread evenly, as long as the run lasts.
     */
    private static final class Beats {
        final List<Session> sessions;
        final AtomicLong requests = new AtomicLong();
        final AtomicLong sent = new AtomicLong();
        final AtomicLong late = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        private final ExecutorService pool = Executors.newFixedThreadPool(4);
        private final java.net.http.HttpClient http =
                java.net.http.HttpClient.newBuilder()
                        .version(java.net.http.HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(5))
                        .build();
        private volatile boolean running = true;

        Beats(List<Session> sessions) {
            this.sessions = sessions;
        }

        /** One beat for all of {@code s}'s tabs, with its cookies: the answer's status. */
        private int beat(Session s, String views) {
            try {
                return http.send(
                                java.net.http.HttpRequest.newBuilder(
                                                s.base.resolve("api/locks/heartbeat?" + views))
                                        .timeout(Duration.ofSeconds(30))
                                        .header("Cookie", s.cookie)
                                        .POST(java.net.http.HttpRequest.BodyPublishers.noBody())
                                        .build(),
                                java.net.http.HttpResponse.BodyHandlers.discarding())
                        .statusCode();
            } catch (java.io.IOException e) {
                return -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
        }

        void start() {
            for (int t = 0; t < 4; t++) {
                int slice = t;
                pool.submit(
                        () -> {
                            while (running) {
                                long round = System.nanoTime();
                                List<Session> all = List.copyOf(sessions);
                                long spacing = all.isEmpty() ? 0 : BEAT.toNanos() / all.size();
                                for (int k = 0; k < all.size() && running; k++) {
                                    if (k % 4 != slice) {
                                        continue;
                                    }
                                    Session s = all.get(k);
                                    List<String> tabs = List.copyOf(s.tabs);
                                    if (tabs.isEmpty()) {
                                        continue; // logged in, no tab open yet
                                    }
                                    long wait = round + k * spacing - System.nanoTime();
                                    if (wait > 0) {
                                        TimeUnit.NANOSECONDS.sleep(wait);
                                    } else if (-wait > TimeUnit.SECONDS.toNanos(1)) {
                                        late.addAndGet(tabs.size());
                                    }
                                    String views =
                                            tabs.stream()
                                                    .map(tab -> "view=" + tab)
                                                    .collect(
                                                            java.util.stream.Collectors.joining(
                                                                    "&"));
                                    int status = beat(s, views);
                                    requests.incrementAndGet();
                                    (status == 204 ? sent : failed).addAndGet(tabs.size());
                                }
                                long rest = round + BEAT.toNanos() - System.nanoTime();
                                if (rest > 0) {
                                    TimeUnit.NANOSECONDS.sleep(rest);
                                }
                            }
                            return null;
                        });
            }
        }

        void stop() throws InterruptedException {
            running = false;
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
            http.close();
        }
    }

    /**
     * A release reaching open list pages: {@code browsers} sessions of {@link #TABS_PER_SESSION}
     * list tabs each, one stream per browser; {@code rounds} times a holder takes configurator
     * {@code id} (every tab hears of it) and releases it. The microseconds from each release's
     * request to each tab's message.
     */
    private static List<Long> listFanOut(URI base, long id, int browsers, int rounds)
            throws Exception {
        Map<String, Long> heard = new java.util.concurrent.ConcurrentHashMap<>();
        List<Session> lists = new ArrayList<>();
        Browser holder = new Browser(base).basic("sara", "demo");
        List<Long> micros = new ArrayList<>();
        try {
            for (int b = 0; b < browsers; b++) {
                Session s = new Session(base);
                require(s.browser.login("omar", "demo").statusCode() == 200, "login");
                for (int t = 0; t < TABS_PER_SESSION; t++) {
                    require(
                            s.browser.get("configurators.xhtml").statusCode() == 200,
                            "a list page did not open");
                    s.tabs.add(s.browser.viewToken().orElseThrow());
                }
                String live = s.browser.liveAddress().orElseThrow().toString();
                s.stream =
                        PageStream.open(
                                URI.create(
                                        live.substring(0, live.indexOf("?tabs="))
                                                + "?tabs="
                                                + String.join(",", s.tabs)),
                                s.browser.cookieHeader().orElseThrow(),
                                Duration.ofSeconds(10),
                                m -> {
                                    if (m.contains("\"lock\"")) {
                                        java.util.regex.Matcher tab =
                                                java.util.regex.Pattern.compile(
                                                                "\"tab\":\"([^\"]+)\"")
                                                        .matcher(m);
                                        if (tab.find()) {
                                            heard.putIfAbsent(tab.group(1), System.nanoTime());
                                        }
                                    }
                                });
                require(s.stream.status() == 200, "a list stream was refused");
                lists.add(s);
            }
            int tabs = browsers * TABS_PER_SESSION;
            String resource = "{\"resource\":\"configurator:" + id + "\"}";
            for (int round = 0; round < rounds; round++) {
                heard.clear();
                require(holder.postJson("api/locks", resource).statusCode() == 201, "acquire");
                awaitHeard(heard, tabs);
                heard.clear();
                long released = System.nanoTime();
                require(
                        holder.delete("api/locks/configurator:" + id).statusCode() == 204,
                        "release");
                awaitHeard(heard, tabs);
                heard.values().forEach(at -> micros.add((at - released) / 1000));
            }
        } finally {
            for (Session s : lists) {
                s.stream.close();
                s.browser.post("api/logout");
            }
        }
        Collections.sort(micros);
        return micros;
    }

    private static void awaitHeard(Map<String, Long> heard, int tabs) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (heard.size() < tabs) {
            require(
                    System.nanoTime() < until,
                    "only " + heard.size() + " of " + tabs + " list tabs heard within 10 s");
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    private static void resetStatements(Cluster cluster) throws java.sql.SQLException {
        try (java.sql.Connection c = cluster.connect();
                java.sql.Statement s = c.createStatement()) {
            s.execute("create extension if not exists pg_stat_statements");
            s.execute("select pg_stat_statements_reset()");
        }
    }

    /** The lease renewals the database ran since the reset, and their mean time. */
    private record Renewals(long calls, double meanMillis, double maxMillis) {}

    /** Locks the sweep ended because their lease lapsed, since the run began. */
    private static long expired(Cluster cluster) throws java.sql.SQLException {
        try (java.sql.Connection c = cluster.connect();
                java.sql.Statement s = c.createStatement();
                java.sql.ResultSet rs =
                        s.executeQuery(
                                "select count(*) from lock_event where event_type = 'EXPIRED'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * The lease renewals since the reset, by the database's own count ({@code pg_stat_statements}:
     * the renewal statement begins {@code with beat as}): how many, their mean and longest time.
     */
    private static Renewals renewals(Cluster cluster) throws java.sql.SQLException {
        try (java.sql.Connection c = cluster.connect();
                java.sql.Statement s = c.createStatement();
                java.sql.ResultSet rs =
                        s.executeQuery(
                                "select coalesce(sum(calls), 0),"
                                        + " coalesce(sum(total_exec_time) / nullif(sum(calls), 0), 0),"
                                        + " coalesce(max(max_exec_time), 0)"
                                        + " from pg_stat_statements where query like 'with beat as%'")) {
            rs.next();
            return new Renewals(rs.getLong(1), rs.getDouble(2), rs.getDouble(3));
        }
    }

    /** Configurator locks held now, as the node's metrics count them. */
    private static long locksHeld(URI base) {
        String metrics = new Browser(base.resolve("/")).get("metrics").body();
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile(
                                "(?m)^locks_held\\{[^}]*kind=\"configurator\"[^}]*\\} ([0-9.eE+]+)$")
                        .matcher(metrics);
        require(m.find(), "the node's metrics have no locks_held");
        return (long) Double.parseDouble(m.group(1));
    }

    /** Each node's CPU over {@code window}, in cores (1.0: one core all the time). */
    private static double[] cpuPerSecond(List<NodeHeap> nodes, Duration window) throws Exception {
        Duration[] before = new Duration[nodes.size()];
        for (int n = 0; n < before.length; n++) {
            before[n] = nodes.get(n).cpu();
        }
        long start = System.nanoTime();
        TimeUnit.MILLISECONDS.sleep(window.toMillis());
        double seconds = (System.nanoTime() - start) / 1e9;
        double[] cores = new double[before.length];
        for (int n = 0; n < cores.length; n++) {
            cores[n] = nodes.get(n).cpu().minus(before[n]).toMillis() / 1000.0 / seconds;
        }
        return cores;
    }

    /** One more user opening configurator {@code id} for editing {@code times} times: µs each. */
    private static List<Long> editPage(URI base, long id, int times) {
        Browser user = new Browser(base);
        require(user.login("omar", "demo").statusCode() == 200, "login");
        List<Long> micros = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            long t0 = System.nanoTime();
            HttpResponse<String> page = user.get("configurator.xhtml?id=" + id);
            micros.add((System.nanoTime() - t0) / 1000);
            require(page.statusCode() == 200, "the edit page answered " + page.statusCode());
        }
        user.delete("api/locks/configurator:" + id);
        user.post("api/logout"); // its pages are not idle editing tabs: they must not count as such
        Collections.sort(micros);
        return micros;
    }

    private static double at(List<Long> sortedMicros, double q) {
        List<Long> s = new ArrayList<>(sortedMicros);
        Collections.sort(s);
        return s.get(Math.min(s.size() - 1, (int) Math.ceil(q * s.size()) - 1));
    }

    private static String ms(List<Long> micros, double q) {
        return Report.number(at(micros, q) / 1000.0);
    }

    private static void require(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException(what);
        }
    }
}
