package com.editlock.it;

import com.editlock.bench.Charts;
import com.editlock.bench.Report;
import com.editlock.launcher.PayaraNode;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many open editing tabs one node holds, and what they cost it: simulated tabs, each an edit
 * page opened in a session of its own browser ({@code GET configurator.xhtml?id=…}: the lock taken,
 * the page rendered), {@value #TABS_PER_SESSION} tabs per session sharing one live stream as a
 * browser's worker does, every tab beating every 5 s as its page does ({@code POST
 * /api/locks/heartbeat?view=…}). At each level, with every tab open and beating: the node's heap
 * after a full collection and its CPU, both per open tab (against the node before any tab opened);
 * the heartbeats the load driver kept up with; the edit page's latency for one more user; a release
 * reaching 100 open pages of one record. One Payara Micro node ({@code -Xmx1g}), the product's
 * lease, sweep and tab grace; the load driver runs on the same cores.
 */
public final class CapacityBenchmark {

    static final int TABS_PER_SESSION = 50;
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

    public static void run(Report report, boolean quick) throws Exception {
        int[] levels =
                Arrays.stream(
                                System.getProperty(
                                                "bench.capacity.tabs",
                                                quick ? "500,1000" : "1000,5000,10000")
                                        .split(","))
                        .mapToInt(Integer::parseInt)
                        .toArray();
        int most = Arrays.stream(levels).max().orElseThrow();
        List<List<String>> rows = new ArrayList<>();
        Charts.Series heapLine = new Charts.Series("node heap per open tab, KB");
        Charts.Series cpuLine = new Charts.Series("node CPU per open tab, µs per s");
        try (Cluster cluster =
                Cluster.start(
                        1,
                        "capacity",
                        List.of(
                                "-Xmx1g",
                                "-Dlocks.lease.seconds=20",
                                "-Dlocks.sweep.seconds=5",
                                "-Dlocks.tab.grace.seconds=2",
                                "-Dlocks.session.timeout.seconds=1800"))) {
            PayaraNode node = cluster.node(0);
            NodeHeap heap = NodeHeap.listeningOn(node.port());
            List<Long> ids =
                    cluster.addConfigurators(most + 1).stream()
                            .filter(k -> k.matches("configurator:\\d+"))
                            .map(k -> Long.parseLong(k.substring("configurator:".length())))
                            .toList();
            long emptyHeap = heap.usedAfterGc();
            double emptyCpu = cpuPerSecond(heap, Duration.ofSeconds(quick ? 5 : 15));
            List<Session> sessions = new CopyOnWriteArrayList<>();
            List<String> allTabs = new CopyOnWriteArrayList<>();
            Beats beats = new Beats(sessions);
            beats.start();
            try {
                for (int level : levels) {
                    long opening = System.nanoTime();
                    open(cluster.uri(0), ids, sessions, allTabs, level);
                    double openSeconds = (System.nanoTime() - opening) / 1e9;
                    TimeUnit.SECONDS.sleep(quick ? 3 : 10); // every tab beats once or twice
                    long late0 = beats.late.get();
                    long sent0 = beats.sent.get();
                    long failed0 = beats.failed.get();
                    long window0 = System.nanoTime();
                    double cpu = cpuPerSecond(heap, Duration.ofSeconds(quick ? 5 : 20));
                    double windowSeconds = (System.nanoTime() - window0) / 1e9;
                    double beatRate = (beats.sent.get() - sent0) / windowSeconds;
                    long late = beats.late.get() - late0;
                    long failed = beats.failed.get() - failed0;
                    long used = heap.usedAfterGc();
                    List<Long> page = editPage(cluster.uri(0), ids.get(most), quick ? 30 : 100);
                    List<Long> fanOut =
                            PageBenchmarks.fanOut(
                                    node,
                                    List.of(node),
                                    ids.get(most).intValue(),
                                    100,
                                    quick ? 5 : 10);
                    double heapPerTab = (used - emptyHeap) / 1024.0 / level;
                    double cpuPerTab = (cpu - emptyCpu) * 1e6 / level;
                    rows.add(
                            List.of(
                                    String.format("%,d", level),
                                    String.format("%,d", sessions.size()),
                                    Report.number(openSeconds),
                                    String.format(
                                            "%s of %s",
                                            Report.number(beatRate),
                                            Report.number(level / (double) BEAT.toSeconds())),
                                    String.format("%,d / %,d", late, failed),
                                    String.format("%,d", used / 1024 / 1024),
                                    String.format("**%s**", Report.number(heapPerTab)),
                                    String.format("%.0f %%", cpu * 100),
                                    Report.number(cpuPerTab),
                                    ms(page, 0.5) + " / " + ms(page, 0.99),
                                    ms(fanOut, 0.5) + " / " + ms(fanOut, 0.99)));
                    heapLine.add(level, heapPerTab);
                    cpuLine.add(level, cpuPerTab);
                    if (level == most) {
                        report.target(
                                String.format(
                                        "node heap per idle open editing tab, %,d tabs", level),
                                "≤ 20 KB",
                                Report.number(heapPerTab) + " KB",
                                heapPerTab <= 20);
                        double p99 = at(page, 0.99) / 1000.0;
                        report.target(
                                String.format("edit page p99 with %,d tabs open", level),
                                "≤ 200 ms",
                                Report.number(p99) + " ms",
                                p99 <= 200);
                        double push = at(fanOut, 0.99) / 1000.0;
                        report.target(
                                String.format(
                                        "a release reaching a record's open pages, p99, %,d tabs",
                                        level),
                                "≤ 1,000 ms",
                                Report.number(push) + " ms",
                                push <= 1000);
                    }
                }
            } finally {
                beats.stop();
                for (Session s : sessions) {
                    if (s.stream != null) {
                        s.stream.close();
                    }
                }
            }
        }
        report.heading("8. Capacity: open editing tabs on one node");
        report.text(
                String.format(
                        """
                Simulated tabs on one Payara Micro node (`-Xmx1g`, the product's 20 s lease, 5 s sweep, 2 s tab
                grace): each tab is an edit page opened in a logged-in session (`GET configurator.xhtml?id=…`, its
                own configurator, so its own lock), %d tabs per session sharing one live stream as a browser's
                worker does, each tab beating every %d s as its page does. With every tab open and beating: the
                heartbeats the load driver delivered against those due (*late*: more than a second behind), the
                node's heap after a full collection, per tab against the node before any tab opened, the node's
                CPU (its process, `/proc`) and per tab, the edit page for one more user (p50 / p99 ms), and a
                release reaching 100 open read-only pages of one record, each its own session and stream
                (p50 / p99 ms). The load driver (Java's HTTP client, a thread per stream) shares the 2 cores, so
                its cost is in every figure. Liveness costs the database one statement a second whatever the
                number of tabs (part 7).""",
                        TABS_PER_SESSION, BEAT.toSeconds()));
        report.table(
                List.of(
                        "open tabs",
                        "sessions",
                        "opened in s",
                        "beats/s delivered",
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
    }

    /** Opens sessions and tabs until {@code level} tabs are open, each session then its stream. */
    private static void open(
            URI base, List<Long> ids, List<Session> sessions, List<String> allTabs, int level)
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
                                    Session s = new Session(new Browser(base));
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
                                                    s.browser.sessionId().orElse(null),
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

    /** Every open tab beats every {@link #BEAT}, spread evenly, as long as the run lasts. */
    private static final class Beats {
        final List<Session> sessions;
        final AtomicLong sent = new AtomicLong();
        final AtomicLong late = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        private final ExecutorService pool = Executors.newFixedThreadPool(8);
        private volatile boolean running = true;

        Beats(List<Session> sessions) {
            this.sessions = sessions;
        }

        void start() {
            for (int t = 0; t < 8; t++) {
                int slice = t;
                pool.submit(
                        () -> {
                            while (running) {
                                long round = System.nanoTime();
                                List<Session> all = List.copyOf(sessions);
                                int tabs = all.stream().mapToInt(s -> s.tabs.size()).sum();
                                long spacing = tabs == 0 ? 0 : BEAT.toNanos() / tabs;
                                long k = 0;
                                for (Session s : all) {
                                    for (String tab : s.tabs) {
                                        if (k++ % 8 != slice || !running) {
                                            continue;
                                        }
                                        long wait = round + k * spacing - System.nanoTime();
                                        if (wait > 0) {
                                            TimeUnit.NANOSECONDS.sleep(wait);
                                        } else if (-wait > TimeUnit.SECONDS.toNanos(1)) {
                                            late.incrementAndGet();
                                        }
                                        int status =
                                                s.browser
                                                        .post("api/locks/heartbeat?view=" + tab)
                                                        .statusCode();
                                        (status == 204 ? sent : failed).incrementAndGet();
                                    }
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

    /** The node's CPU over {@code window}, in cores (1.0: one core all the time). */
    private static double cpuPerSecond(NodeHeap node, Duration window) throws Exception {
        Duration before = node.cpu();
        long start = System.nanoTime();
        TimeUnit.MILLISECONDS.sleep(window.toMillis());
        double seconds = (System.nanoTime() - start) / 1e9;
        return node.cpu().minus(before).toMillis() / 1000.0 / seconds;
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
