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
    private static final Duration BEAT = Duration.ofSeconds(5);

    private CapacityBenchmark() {}

    /** One browser: a session, its open editing tabs, and the one stream that carries them. */
    private static final class Session {
        final Browser browser;
        final List<String> tabs = new ArrayList<>();
        PageStream stream;

        Session(Browser browser) {
            this.browser = browser;
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
            Map<String, Long> classes) {}

    private static final List<String> NODE_SETTINGS =
            List.of(
                    "-Xmx1g",
                    "-Dlocks.lease.seconds=20",
                    "-Dlocks.sweep.seconds=5",
                    "-Dlocks.tab.grace.seconds=2",
                    "-Dlocks.session.timeout.seconds=1800");

    public static void run(Report report, boolean quick) throws Exception {
        String asked = System.getProperty("bench.capacity.tabs", "");
        int[] levels =
                Arrays.stream(
                                (asked.isBlank() ? quick ? "500,1000" : "1000,5000,10000" : asked)
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
        try (Cluster cluster = Cluster.start(1, "capacity", NODE_SETTINGS)) {
            Load load = new Load(cluster, most, quick);
            try {
                for (int level : levels) {
                    top = load.measure(level, String.format("%,d", level));
                    rows.add(top.row());
                    heapLine.add(level, top.heapPerTab());
                    cpuLine.add(level, top.cpuPerTab());
                    System.out.printf(
                            "Heap grown with %,d open tabs, by class:%n%s%n",
                            level, NodeHeap.growth(load.emptyClasses, top.classes(), 80));
                }
                profile = NodeHeap.growth(load.emptyClasses, top.classes());
                lists =
                        listFanOut(
                                cluster.uri(0),
                                load.ids.get(most),
                                LIST_PAGES / TABS_PER_SESSION,
                                quick ? 3 : 10);
            } finally {
                load.close();
            }
        }
        Level split;
        try (Cluster cluster = Cluster.start(2, "capacity-split", NODE_SETTINGS)) {
            Load load = new Load(cluster, most, quick);
            try {
                split = load.measure(most, String.format("%,d on 2 nodes", most));
                rows.add(split.row());
            } finally {
                load.close();
            }
        }
        report.target(
                String.format(
                        "liveness statements per node per second, %,d open tabs over HTTP"
                                + " (pg_stat_statements)",
                        most),
                "≤ 1",
                Report.number(top.livenessPerNode()),
                top.livenessPerNode() <= 1.0);
        report.target(
                String.format(
                        "liveness statements per node per second, %,d tabs over 2 nodes", most),
                "≤ 1",
                Report.number(split.livenessPerNode()),
                split.livenessPerNode() <= 1.0);
        report.target(
                String.format("node heap per idle open editing tab, %,d tabs", most),
                "≤ 20 KB",
                Report.number(top.heapPerTab()) + " KB",
                top.heapPerTab() <= 20);
        double p99 = at(top.page(), 0.99) / 1000.0;
        report.target(
                String.format("edit page p99 with %,d tabs open", most),
                "≤ 200 ms",
                Report.number(p99) + " ms",
                p99 <= 200);
        double push = at(top.fanOut(), 0.99) / 1000.0;
        report.target(
                String.format("a release reaching a record's open pages, p99, %,d tabs", most),
                "≤ 1,000 ms",
                Report.number(push) + " ms",
                push <= 1000);
        double listPush = at(lists, 0.99) / 1000.0;
        report.target(
                String.format(
                        "a release reaching %,d open list pages, p99, %,d tabs", LIST_PAGES, most),
                "≤ 1,000 ms",
                Report.number(listPush) + " ms",
                listPush <= 1000);
        report.heading("8. Capacity: open editing tabs per node");
        report.text(
                String.format(
                        """
                Simulated tabs on one Payara Micro node (`-Xmx1g`, the product's 20 s lease, 5 s sweep, 2 s tab
                grace): each tab is an edit page opened in a logged-in session (`GET configurator.xhtml?id=…`, its
                own configurator, so its own lock), %d tabs per session sharing one live stream and one heartbeat
                request every %d s that names all of them, as a browser's shared worker does. With every tab open
                and beating: the heartbeat requests a second, the lease renewals the database ran a second (its
                own count, `pg_stat_statements`), the tab beats they delivered against those due
                (*late*: more than a second behind), the
                node's heap after a full collection, per tab against the node before any tab opened, the node's
                CPU (its process, `/proc`) and per tab, the edit page for one more user (p50 / p99 ms), and a
                release reaching 100 open read-only pages of one record, each its own session and stream
                (p50 / p99 ms). The load driver (Java's HTTP client, a thread per stream) shares the 2 cores, so
                its cost is in every figure. The last row opens the most tabs over two nodes of one cluster
                (browsers alternate between them; heap and CPU per node, the pages of the push spread over both):
                liveness then costs one statement a second per node.""",
                        TABS_PER_SESSION, BEAT.toSeconds()));
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
                        "edit page ms",
                        "release → 100 pages ms"),
                rows);
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

        Load(Cluster cluster, int most, boolean quick) throws Exception {
            this.cluster = cluster;
            this.quick = quick;
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
            long opening = System.nanoTime();
            open(n -> cluster.uri(n % nodes.size()), ids, sessions, allTabs, level);
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
            double liveness = livenessStatements(cluster) / windowSeconds;
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
                            ms(page, 0.5) + " / " + ms(page, 0.99),
                            ms(fanOut, 0.5) + " / " + ms(fanOut, 0.99));
            return new Level(
                    row, heapPerTab, cpuPerTab, liveness / nodes.size(), page, fanOut, classes);
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
                                    Session s =
                                            new Session(
                                                    new Browser(
                                                            nodeOf.apply(
                                                                    start / TABS_PER_SESSION)));
                                    require(
                                            s.browser.login("sara", "demo").statusCode() == 200,
                                            "login");
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
                                    allTabs.addAll(s.tabs);
                                    sessions.add(s);
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
        private volatile boolean running = true;

        Beats(List<Session> sessions) {
            this.sessions = sessions;
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
                                    long wait = round + k * spacing - System.nanoTime();
                                    if (wait > 0) {
                                        TimeUnit.NANOSECONDS.sleep(wait);
                                    } else if (-wait > TimeUnit.SECONDS.toNanos(1)) {
                                        late.addAndGet(s.tabs.size());
                                    }
                                    String views =
                                            s.tabs.stream()
                                                    .map(tab -> "view=" + tab)
                                                    .collect(
                                                            java.util.stream.Collectors.joining(
                                                                    "&"));
                                    int status =
                                            s.browser
                                                    .post("api/locks/heartbeat?" + views)
                                                    .statusCode();
                                    requests.incrementAndGet();
                                    (status == 204 ? sent : failed).addAndGet(s.tabs.size());
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
                Session s = new Session(new Browser(base));
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

    /**
     * The lease renewals the database ran since the reset, by its own count ({@code
     * pg_stat_statements}: the renewal statement begins {@code with beat as}).
     */
    private static long livenessStatements(Cluster cluster) throws java.sql.SQLException {
        try (java.sql.Connection c = cluster.connect();
                java.sql.Statement s = c.createStatement();
                java.sql.ResultSet rs =
                        s.executeQuery(
                                "select coalesce(sum(calls), 0) from pg_stat_statements"
                                        + " where query like 'with beat as%'")) {
            rs.next();
            return rs.getLong(1);
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
