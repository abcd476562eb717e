package com.editlock.bench;

import com.editlock.it.browser.Browser;
import com.editlock.it.browser.Chromium;
import com.editlock.launcher.EmbeddedDatabase;
import com.editlock.launcher.PayaraNode;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How fast a release reaches open pages: {@value #VIEWERS} read-only pages of one configurator
 * (each its own HTTP session and its page's own live stream, as a browser holds it), then {@value
 * #ROUNDS} times: the holder releases the lock through the API, and every page's stream times the
 * arrival of the news. Once with every page on the node where the lock is released, once with half
 * of them on a second node (two Payara Micro instances, Hazelcast off, one embedded PostgreSQL).
 * Then on one node the same pages alone and beside a stalled reader, while another lock changes all
 * the time ({@link #besideAStalledReader}). The pages are spread over people of their own (one
 * person holds at most 48 streams). Run with {@code mvn -Pbench-live}; it prints Markdown tables.
 * With {@code -Dsoak.minutes=10} it then keeps four editing tabs of one browser open and active for
 * that long and counts spurious releases (there must be none).
 *
 * <p>What is timed is the push reaching the page; the page then re-renders its lock area with one
 * Ajax request.
 */
public final class LiveBenchmark {

    private static final int VIEWERS = Integer.getInteger("bench.viewers", 50);
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 20);

    public static void main(String[] args) throws Exception {
        Path war = Path.of(System.getProperty("editlock.war"));
        Path logs = war.getParent();
        try (EmbeddedDatabase db = EmbeddedDatabase.throwAway()) {
            List<String> jvm =
                    List.of(
                            "-Xmx512m",
                            "-Dlocks.db.url=" + db.jdbcUrl(),
                            "-Dlocks.db.user=" + db.user(),
                            "-Dlocks.db.password=" + db.password(),
                            "-Dlocks.demo.data=true");
            List<PayaraNode> nodes = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    nodes.add(
                            PayaraNode.startServing(
                                    Path.of(System.getProperty("payara.microJar")),
                                    war,
                                    Path.of(System.getProperty("editlock.serverConfig")),
                                    18_280 + i,
                                    jvm,
                                    logs.resolve("bench-live-node-" + (i + 1) + ".log"),
                                    Duration.ofMinutes(2)));
                }
                sweeps(URI.create(nodes.get(0).url())); // the metrics are there, before any row
                List<String> people = addPeople(db, VIEWERS / 40 + 1);
                System.out.printf(
                        "%nA release reaching %d open read-only pages (%d rounds), %d cores, %s%n%n",
                        VIEWERS,
                        ROUNDS,
                        Runtime.getRuntime().availableProcessors(),
                        com.editlock.bench.RunStamp.now());
                System.out.println("| pages on | samples | p50 ms | p99 ms | max ms |");
                System.out.println("|---|---:|---:|---:|---:|");
                row(
                        "one node (the releasing one)",
                        PageBenchmarks.fanOutWhile(
                                nodes.get(0),
                                List.of(nodes.get(0)),
                                1,
                                VIEWERS,
                                people,
                                r -> r < ROUNDS));
                List<Long> both =
                        PageBenchmarks.fanOutWhile(
                                nodes.get(0), nodes, 2, VIEWERS, people, r -> r < ROUNDS);
                row("two nodes, half on the other one", both);
                besideAStalledReader(nodes.get(0), people);
                int minutes = Integer.getInteger("soak.minutes", 0);
                if (minutes > 0) {
                    soak(nodes.get(0), Duration.ofMinutes(minutes));
                }
            } finally {
                nodes.forEach(PayaraNode::stop);
            }
        }
    }

    /**
     * {@code count} people (editors, password {@code demo}) to spread the pages over: one person
     * holds at most 48 streams, as a browser's pages share one.
     */
    private static List<String> addPeople(EmbeddedDatabase db, int count) throws Exception {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            return People.add(c, "viewer", count);
        }
    }

    /**
     * No stream holds up another. The same pages hear the same releases while another record's lock
     * changes as fast as one client can change it, first with nobody else connected, then beside a
     * stalled reader: Ada's browser with 63 list pages and an edit page on one stream that reads
     * nothing (a 4 KB receive window), so every lock change queues 64 messages for it until its
     * buffers are full; then its next write waits on a thread of its own for 5 s, the stream is
     * ended, and after the 2 s tab grace her edit page's lock is released. The second series runs
     * until that release, so it covers the filling, the held write and the grace.
     */
    private static void besideAStalledReader(PayaraNode node, List<String> people)
            throws Exception {
        URI base = URI.create(node.url());
        Browser churner = new Browser(base).basic("omar", "demo");
        java.util.concurrent.atomic.AtomicBoolean stop =
                new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicLong changes =
                new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicReference<String> churnFailed =
                new java.util.concurrent.atomic.AtomicReference<>();
        Thread churn =
                Thread.ofPlatform()
                        .name("lock-churn")
                        .start(
                                () -> {
                                    try {
                                        while (!stop.get()) {
                                            int got =
                                                    churner.postJson(
                                                                    "api/locks",
                                                                    "{\"resource\":\"configurator:3\"}")
                                                            .statusCode();
                                            int gone =
                                                    churner.delete("api/locks/configurator:3")
                                                            .statusCode();
                                            if (got != 201 || gone != 204) {
                                                churnFailed.set(got + "/" + gone);
                                                return;
                                            }
                                            changes.addAndGet(2);
                                        }
                                    } catch (RuntimeException e) { // fails the run, not silently
                                        churnFailed.set(e.toString());
                                    }
                                });
        double[] sweepFrom = sweeps(base);
        long sweepStarted = System.nanoTime();
        try {
            long from = changes.get();
            long started = System.nanoTime();
            List<Long> alone =
                    PageBenchmarks.fanOutWhile(
                            node, List.of(node), 1, VIEWERS, people, r -> r < ROUNDS * 2);
            double aloneRate = (changes.get() - from) * 1e9 / (System.nanoTime() - started);
            require(churnFailed.get() == null, "the churn failed: " + churnFailed.get());
            Browser ada = new Browser(base);
            Browser admin = new Browser(base).basic("sara", "demo");
            java.net.Socket[] unread = {null};
            long[] opened = {0};
            long[] lastBeat = {0};
            long[] freed = {0};
            long[] changesFrom = {0};
            List<Long> beside;
            try {
                beside =
                        PageBenchmarks.fanOutWhile(
                                node,
                                List.of(node),
                                1,
                                VIEWERS,
                                people,
                                r -> {
                                    if (unread[0] == null) { // the pages are open: now the reader
                                        unread[0] = stall(ada, base);
                                        opened[0] = System.nanoTime();
                                        lastBeat[0] = opened[0];
                                        changesFrom[0] = changes.get();
                                    }
                                    long now = System.nanoTime();
                                    if (now - lastBeat[0] > 2_000_000_000L) { // her lease holds
                                        lastBeat[0] = now;
                                        require(
                                                ada.post("api/locks/heartbeat").statusCode() == 204,
                                                "Ada's heartbeat");
                                    }
                                    require(
                                            now - opened[0] < TimeUnit.MINUTES.toNanos(3),
                                            "the stalled stream was not ended within 3 minutes");
                                    if (admin.get("api/locks/configurator:2").statusCode() == 404) {
                                        freed[0] = now;
                                        return false;
                                    }
                                    return true;
                                });
            } finally {
                if (unread[0] != null) {
                    unread[0].close();
                }
            }
            require(!beside.isEmpty(), "no round ran beside the stalled reader");
            double besideRate = (changes.get() - changesFrom[0]) * 1e9 / (freed[0] - opened[0]);
            require(churnFailed.get() == null, "the churn failed: " + churnFailed.get());
            System.out.printf(
                    "%nNo stream holds up another (%s): %d pages hear releases while configurator 3's"
                            + " lock changes %.0f times a second; beside the stalled reader its"
                            + " edit page's lock was released %.1f s after its stream opened%n%n",
                    com.editlock.bench.RunStamp.now(),
                    VIEWERS,
                    (aloneRate + besideRate) / 2,
                    (freed[0] - opened[0]) / 1e9);
            System.out.println("| pages hear a release | samples | p50 ms | p99 ms | max ms |");
            System.out.println("|---|---:|---:|---:|---:|");
            row("alone (baseline)", alone);
            row("beside a stalled reader, until its lock is released", beside);
            System.out.printf(
                    "%np99 beside a stalled reader / p99 alone: %.2f%n",
                    p99(beside) / (double) p99(alone));
            double[] sweepTo = sweeps(base);
            double runs = sweepTo[0] - sweepFrom[0];
            double millis = sweepTo[1] - sweepFrom[1];
            double wall = (System.nanoTime() - sweepStarted) / 1e6;
            System.out.printf(
                    "%nThe sweep meanwhile (this node, every %s s): %.0f runs in %.0f s, %.1f ms each on"
                            + " average, %.2f %% of the node's wall-clock time%n",
                    System.getProperty("locks.sweep.seconds", "2"),
                    runs,
                    wall / 1000,
                    millis / Math.max(1, runs),
                    100 * millis / wall);
        } finally {
            stop.set(true);
            churn.join();
        }
    }

    /**
     * Ada's 63 list pages and her edit page of configurator 2 on one stream that reads nothing (a 4
     * KB receive window): every lock change queues 64 messages for it.
     */
    private static java.net.Socket stall(Browser ada, URI base) {
        try {
            require(ada.login("ada", "demo").statusCode() == 200, "Ada's login");
            List<String> tabs = new ArrayList<>();
            for (int i = 0; i < 63; i++) {
                ada.get("configurators.xhtml");
                tabs.add(ada.viewToken().orElseThrow());
            }
            ada.get("configurator.xhtml?id=2");
            require(ada.page().contains("data-editing=\"true\""), "Ada edits configurator 2");
            tabs.add(ada.viewToken().orElseThrow());
            return com.editlock.it.browser.PageStream.openUnread(
                    base, ada.cookieHeader().orElseThrow(), tabs, null);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The node's sweeps so far: {runs, milliseconds}, from its {@code /metrics}. */
    private static double[] sweeps(URI base) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); // a sweep every 2 s
        while (true) {
            String metrics = new Browser(base).get("metrics").body();
            // Payara exports the histogram as lock_sweep_duration_seconds: its quantiles and
            // maximum
            // in seconds, its _sum as recorded (milliseconds).
            Double runs = metric(metrics, "lock_sweep_duration_seconds_count");
            Double millis = metric(metrics, "lock_sweep_duration_seconds_sum");
            if (runs != null && millis != null) {
                return new double[] {runs, millis};
            }
            require(
                    System.nanoTime() < deadline,
                    "no sweep duration on /metrics: "
                            + metrics.lines().filter(l -> l.contains("sweep")).toList());
            TimeUnit.MILLISECONDS.sleep(500);
        }
    }

    private static Double metric(String metrics, String name) {
        for (String line : metrics.split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return null;
    }

    private static long p99(List<Long> micros) {
        List<Long> sorted = new ArrayList<>(micros);
        Collections.sort(sorted);
        return at(sorted, 0.99);
    }

    private static void row(String label, List<Long> micros) {
        List<Long> sorted = new ArrayList<>(micros);
        Collections.sort(sorted);
        System.out.printf(
                "| %s | %d | %.0f | %.0f | %.0f |%n",
                label,
                sorted.size(),
                at(sorted, 0.50) / 1000.0,
                at(sorted, 0.99) / 1000.0,
                sorted.get(sorted.size() - 1) / 1000.0);
    }

    private static long at(List<Long> sorted, double quantile) {
        return sorted.get(
                Math.min(sorted.size() - 1, (int) Math.ceil(quantile * sorted.size()) - 1));
    }

    /**
     * No lock is released while its holder's tab is open, connected and active: one browser with
     * four editing tabs (a configurator, a variables page, two items' filters), typing in each in
     * turn, for {@code length}; then every lock must still be held under its first fencing token,
     * and the history must show no release of any of them.
     */
    private static void soak(PayaraNode node, Duration length) throws Exception {
        List<String> pages =
                List.of(
                        "configurator.xhtml?id=3",
                        "variables.xhtml?id=4",
                        "filters.xhtml?id=1",
                        "filters.xhtml?id=5");
        List<String> resources =
                List.of(
                        "configurator:3",
                        "configurator:4:variables",
                        "item:1:filters",
                        "item:5:filters");
        Browser ada = new Browser(URI.create(node.url())).basic("ada", "demo");
        var browser = Chromium.start();
        try {
            browser.get(node.url() + "login.xhtml");
            browser.findElement(org.openqa.selenium.By.id("login:username")).sendKeys("sara");
            browser.findElement(org.openqa.selenium.By.id("login:password")).sendKeys("demo");
            browser.findElement(org.openqa.selenium.By.cssSelector("[data-testid=login]")).click();
            List<String> tabs = new ArrayList<>();
            for (String page : pages) {
                if (!tabs.isEmpty()) {
                    browser.switchTo().newWindow(org.openqa.selenium.WindowType.TAB);
                }
                browser.get(node.url() + page);
                tabs.add(browser.getWindowHandle());
            }
            List<Long> tokens = new ArrayList<>();
            for (String resource : resources) {
                tokens.add(token(ada, resource));
            }
            long end = System.nanoTime() + length.toNanos();
            int keystrokes = 0;
            while (System.nanoTime() < end) {
                for (String tab : tabs) {
                    browser.switchTo().window(tab);
                    new org.openqa.selenium.interactions.Actions(browser)
                            .moveByOffset(1, 1)
                            .moveByOffset(-1, -1)
                            .perform();
                    keystrokes++;
                    TimeUnit.SECONDS.sleep(5); // a person reading, then moving on to the next tab
                }
            }
            int spurious = 0;
            for (int i = 0; i < resources.size(); i++) {
                Long now =
                        ada.get("api/locks/" + resources.get(i)).statusCode() == 200
                                ? token(ada, resources.get(i))
                                : null;
                if (!tokens.get(i).equals(now)) {
                    spurious++;
                    System.out.println(
                            "SPURIOUS RELEASE: "
                                    + resources.get(i)
                                    + " token "
                                    + tokens.get(i)
                                    + " -> "
                                    + now);
                }
            }
            System.out.printf(
                    "%nSoak (%s): %d tabs editing for %d min, %d activity moves: %d spurious"
                            + " releases%n",
                    com.editlock.bench.RunStamp.now(),
                    tabs.size(),
                    length.toMinutes(),
                    keystrokes,
                    spurious);
            require(spurious == 0, spurious + " locks ended while their tabs were open and active");
        } finally {
            Chromium.quit(browser);
        }
    }

    private static long token(Browser admin, String resource) {
        var response = admin.get("api/locks/" + resource);
        require(response.statusCode() == 200, resource + " is not held");
        return jakarta.json.Json.createReader(new java.io.StringReader(response.body()))
                .readObject()
                .getJsonNumber("token")
                .longValue();
    }

    private static void require(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException(what);
        }
    }
}
