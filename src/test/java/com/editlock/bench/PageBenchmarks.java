package com.editlock.bench;

import com.editlock.it.browser.Browser;
import com.editlock.it.browser.PageStream;
import com.editlock.it.node.Cluster;
import com.editlock.launcher.PayaraNode;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The benchmarks a person feels on screen, against two Payara Micro nodes (Hazelcast off, loopback)
 * on one embedded PostgreSQL, with the product's default lease, sweep and tab grace:
 *
 * <ul>
 *   <li><b>The edit page under load</b>: 1 / 10 / 50 users, each its own HTTP session, each opening
 *       its own configurator for editing again and again (acquire + load + render of a Faces page),
 *       against the same page opened read-only ({@code view=true}: no acquisition, no audit row).
 *       The two alternate in rounds, so a drift of the machine touches both.
 *   <li><b>Push fan-out</b>: a release reaching 10 / 100 / 200 open read-only pages (each its own
 *       session and its own live stream, as a browser holds it), on the releasing node and spread
 *       over both.
 *   <li><b>Time to freedom</b>: an editing tab dies (its live stream is cut) → the lock is free,
 *       and a page on the other node has heard it.
 * </ul>
 */
public final class PageBenchmarks {

    private static final int[] USERS = {1, 10, 50};
    private static final int[] PAGES = {10, 100, 200};

    private PageBenchmarks() {}

    public static void run(Report report, boolean pages, boolean push, boolean quick)
            throws Exception {
        try (Cluster cluster =
                Cluster.start(
                        2,
                        "bench",
                        List.of(
                                "-Dlocks.lease.seconds=20",
                                "-Dlocks.sweep.seconds=5",
                                "-Dlocks.tab.grace.seconds=2",
                                "-Dlocks.session.timeout.seconds=1800"))) {
            if (pages) {
                editPage(report, cluster, quick);
            }
            if (push) {
                fanOut(report, cluster, quick);
                timeToFreedom(report, cluster, quick);
            }
        }
    }

    // ---- the edit page under load ----

    private static void editPage(Report report, Cluster cluster, boolean quick) throws Exception {
        List<Long> ids =
                cluster.addConfigurators(50).stream()
                        .filter(k -> k.matches("configurator:\\d+"))
                        .map(k -> Long.parseLong(k.substring("configurator:".length())))
                        .toList();
        List<Browser> users = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            Browser b = new Browser(cluster.uri(0));
            require(b.login("sara", "demo").statusCode() == 200, "login");
            users.add(b);
        }
        int rounds = quick ? 1 : 3;
        long windowMillis = quick ? 2_000 : 5_000;
        List<List<String>> rows = new ArrayList<>();
        Charts.Series editThroughput = new Charts.Series("edit page (acquire + load + render)");
        Charts.Series viewThroughput =
                new Charts.Series("read-only page (view=true, no lock work)");
        Charts.Series editP99 = new Charts.Series("edit page p99");
        Charts.Series viewP99 = new Charts.Series("read-only page p99");
        for (int level : USERS) {
            Load edit = new Load();
            Load view = new Load();
            drive(users, ids, level, false, 1_000, new Load()); // warm-up of this level
            drive(users, ids, level, true, 1_000, new Load());
            for (int round = 0; round < rounds; round++) {
                drive(users, ids, level, true, windowMillis, view);
                drive(users, ids, level, false, windowMillis, edit);
            }
            double ratio = edit.throughput() / view.throughput();
            if (level == 10) {
                report.target(
                        "opening an edit page / the read-only page, pages/s at 10 users",
                        "≥ 0.70",
                        String.format("%.2f", ratio),
                        ratio >= 0.7);
            }
            rows.add(
                    List.of(
                            Integer.toString(level),
                            Report.number(edit.throughput()),
                            Report.number(view.throughput()),
                            String.format("**%.2f**", ratio),
                            String.format(
                                    "%s / %s",
                                    Report.number(edit.quantile(0.5)),
                                    Report.number(edit.quantile(0.99))),
                            String.format(
                                    "%s / %s",
                                    Report.number(view.quantile(0.5)),
                                    Report.number(view.quantile(0.99))),
                            String.format("%,d / %,d", edit.count(), view.count()),
                            Integer.toString(edit.failures.get() + view.failures.get())));
            editThroughput.add(level, edit.throughput());
            viewThroughput.add(level, view.throughput());
            editP99.add(level, edit.quantile(0.99));
            viewP99.add(level, view.quantile(0.99));
        }
        for (Browser user : users) {
            user.post("api/session/logout");
        }
        report.heading("4. The edit page under load");
        report.text(
                String.format(
                        """
                Each user is an HTTP session of its own (logged in through the login screen) opening *its own*
                configurator for editing, again and again: `GET configurator.xhtml?id=…`, which acquires the lock
                (the first time) or takes it over for the new tab (every later time), loads the configurator with
                its items and variables, and renders the page. The baseline is the same page opened read-only
                (`view=true`): the same load and render, no acquisition and no audit row (it still reads the
                aggregate's locks to say who is editing). One Payara Micro node; the load driver is Java's
                HttpClient on the same 2 cores, so its own cost is in both figures. %d rounds of %d s each per
                variant, alternating, after a warm-up; every answer is checked (edit form present, or absent).""",
                        rounds, windowMillis / 1000));
        report.table(
                List.of(
                        "users",
                        "edit pages/s",
                        "read-only pages/s",
                        "edit / read-only",
                        "edit p50 / p99 ms",
                        "read-only p50 / p99 ms",
                        "requests (edit / read-only)",
                        "failed"),
                rows);
        report.chart(
                "edit-page-throughput",
                "Opening a configurator: pages per second",
                "concurrent users",
                "pages/s",
                false,
                List.of(editThroughput, viewThroughput));
        report.chart(
                "edit-page-p99",
                "Opening a configurator: p99 time",
                "concurrent users",
                "ms (log scale)",
                true,
                List.of(editP99, viewP99));
    }

    /** Latencies and failures of one variant at one level. */
    static final class Load {
        final ConcurrentLinkedQueue<Long> micros = new ConcurrentLinkedQueue<>();
        final AtomicInteger failures = new AtomicInteger();
        long elapsedNanos;

        double throughput() {
            return micros.size() * 1e9 / elapsedNanos;
        }

        int count() {
            return micros.size();
        }

        double quantile(double q) {
            List<Long> sorted = new ArrayList<>(micros);
            Collections.sort(sorted);
            return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1))
                    / 1000.0;
        }
    }

    static void drive(
            List<Browser> users,
            List<Long> ids,
            int level,
            boolean readOnly,
            long windowMillis,
            Load load)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(level);
        try {
            long start = System.nanoTime();
            long end = start + TimeUnit.MILLISECONDS.toNanos(windowMillis);
            List<Future<?>> running = new ArrayList<>();
            for (int u = 0; u < level; u++) {
                Browser user = users.get(u);
                String page =
                        "configurator.xhtml?id=" + ids.get(u) + (readOnly ? "&view=true" : "");
                running.add(
                        pool.submit(
                                () -> {
                                    int requests = 0;
                                    while (System.nanoTime() < end && requests++ < 100_000) {
                                        long t = System.nanoTime();
                                        HttpResponse<String> r = user.get(page);
                                        long took = (System.nanoTime() - t) / 1000;
                                        boolean form =
                                                r.body().contains("data-testid=\"edit-form\"");
                                        if (r.statusCode() != 200 || form == readOnly) {
                                            load.failures.incrementAndGet();
                                        } else {
                                            load.micros.add(took);
                                        }
                                    }
                                    return null;
                                }));
            }
            for (Future<?> f : running) {
                f.get(windowMillis + 60_000, TimeUnit.MILLISECONDS);
            }
            load.elapsedNanos += System.nanoTime() - start;
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- push fan-out ----

    private static void fanOut(Report report, Cluster cluster, boolean quick) throws Exception {
        int rounds = quick ? 5 : 20;
        List<List<String>> rows = new ArrayList<>();
        Charts.Series oneP50 = new Charts.Series("one node, p50");
        Charts.Series oneP99 = new Charts.Series("one node, p99");
        Charts.Series twoP50 = new Charts.Series("two nodes, p50");
        Charts.Series twoP99 = new Charts.Series("two nodes, p99");
        for (int pages : PAGES) {
            List<Long> one = fanOut(cluster.node(0), List.of(cluster.node(0)), 1, pages, rounds);
            List<Long> two =
                    fanOut(
                            cluster.node(0),
                            List.of(cluster.node(0), cluster.node(1)),
                            2,
                            pages,
                            rounds);
            rows.add(fanOutRow(pages, "one (the releasing one)", one));
            rows.add(fanOutRow(pages, "two, half on the other", two));
            oneP50.add(pages, at(one, 0.5) / 1000.0);
            oneP99.add(pages, at(one, 0.99) / 1000.0);
            twoP50.add(pages, at(two, 0.5) / 1000.0);
            twoP99.add(pages, at(two, 0.99) / 1000.0);
        }
        report.heading("5. Push fan-out and time to freedom");
        report.text(
                String.format(
                        """
                A lock on a configurator is released through the API; every open read-only page of it (its own
                session, its own live stream, as a browser holds it) times the arrival of the news. Each node reads
                new history lines every 100 ms and tells its own pages, so a release reaches pages on either
                node the same way: the wait for the next read (up to 100 ms; each release comes after a random
                pause of up to 200 ms, so releases fall anywhere in the poll interval) plus the message on the
                stream (written by the node's one writer thread). %d rounds per
                line; every page must hear every release within 10 s. What is timed is the message reaching the page;
                the page then re-renders its lock area with one request.""",
                        rounds));
        report.table(
                List.of("open pages", "on nodes", "samples", "p50 ms", "p99 ms", "max ms"), rows);
        report.chart(
                "push-fan-out",
                "A release reaching the open pages",
                "open pages",
                "ms",
                false,
                List.of(oneP50, oneP99, twoP50, twoP99));
    }

    private static List<String> fanOutRow(int pages, String nodes, List<Long> micros) {
        return List.of(
                Integer.toString(pages),
                nodes,
                Integer.toString(micros.size()),
                Report.number(at(micros, 0.5) / 1000.0),
                Report.number(at(micros, 0.99) / 1000.0),
                Report.number(at(micros, 1.0) / 1000.0));
    }

    /**
     * Configurator {@code id}'s release, from a holder on {@code releasing}, to {@code viewers}
     * read-only pages spread over {@code nodes}, {@code rounds} times: the microseconds from the
     * release's request to each page's news.
     */
    public static List<Long> fanOut(
            PayaraNode releasing, List<PayaraNode> nodes, int id, int viewers, int rounds)
            throws Exception {
        // A person holds at most 48 streams: the demo's three people carry up to 144 pages.
        require(viewers <= 144, "more than 144 pages need more people: fanOutWhile");
        return fanOutWhile(
                releasing,
                nodes,
                id,
                viewers,
                List.of("omar", "ada", "sara"),
                round -> round < rounds);
    }

    /**
     * {@link #fanOut}'s rounds for as long as {@code more} says so (asked before each round with
     * the rounds done), its pages spread over {@code users} in turn (a person holds at most 48
     * streams).
     */
    public static List<Long> fanOutWhile(
            PayaraNode releasing,
            List<PayaraNode> nodes,
            int id,
            int viewers,
            List<String> users,
            java.util.function.IntPredicate more)
            throws Exception {
        Browser holder = new Browser(URI.create(releasing.url())).basic("sara", "demo");
        String resource = "{\"resource\":\"configurator:" + id + "\"}";
        List<PageSocket> pages = new ArrayList<>();
        List<Long> micros = new ArrayList<>();
        try {
            for (int i = 0;
                    i < viewers;
                    i++) { // read-only pages: they open alike whether the record is held or not
                pages.add(
                        new PageSocket(
                                nodes.get(i % nodes.size()),
                                users.get(i % users.size()),
                                "configurator.xhtml?view=true&id=" + id));
            }
            pages.forEach(PageSocket::arm);
            require(
                    holder.postJson("api/locks", resource).statusCode() == 201,
                    "the holder could not take the lock");
            for (PageSocket page : pages) {
                page.awaitNews(System.nanoTime());
            }
            java.util.Random random = new java.util.Random(id);
            for (int round = 0; more.test(round); round++) {
                pages.forEach(PageSocket::arm);
                // A person releases at any moment, not just after the feed's last read (when the
                // news of the
                // previous round arrived): a random pause spreads the releases over the feed's poll
                // interval.
                TimeUnit.MILLISECONDS.sleep(random.nextInt(200));
                long released = System.nanoTime();
                HttpResponse<String> release = holder.delete("api/locks/configurator:" + id);
                require(
                        release.statusCode() == 204,
                        "release failed: "
                                + release.statusCode()
                                + " "
                                + release.body()
                                + "; history: "
                                + new Browser(URI.create(releasing.url()))
                                        .basic("ada", "demo")
                                        .get(
                                                "api/locks/events?resource=configurator:"
                                                        + id
                                                        + "&limit=5")
                                        .body());
                for (PageSocket page : pages) {
                    micros.add(page.awaitNews(released));
                }
                pages.forEach(PageSocket::arm);
                require(
                        holder.postJson("api/locks", resource).statusCode() == 201,
                        "re-acquire failed");
                for (PageSocket page : pages) {
                    page.awaitNews(System.nanoTime());
                }
            }
        } finally {
            pages.forEach(PageSocket::close);
            holder.delete("api/locks/configurator:" + id);
        }
        return micros;
    }

    // ---- time to freedom ----

    private static void timeToFreedom(Report report, Cluster cluster, boolean quick)
            throws Exception {
        int trials = quick ? 3 : 10;
        List<Long> free = new ArrayList<>();
        List<Long> heard = new ArrayList<>();
        Browser ada = new Browser(cluster.uri(0)).basic("ada", "demo");
        for (int trial = 0; trial < trials; trial++) {
            PageSocket editor = new PageSocket(cluster.node(0), "sara", "configurator.xhtml?id=3");
            require(
                    editor.html.contains("data-testid=\"edit-form\""),
                    "the editor did not get the lock");
            PageSocket watcher =
                    new PageSocket(cluster.node(1), "omar", "configurator.xhtml?view=true&id=3");
            try {
                watcher.arm();
                long died = System.nanoTime();
                editor.abort();
                long deadline = died + TimeUnit.SECONDS.toNanos(60);
                while (ada.get("api/locks/configurator:3").statusCode() == 200) {
                    require(
                            System.nanoTime() < deadline,
                            "the dead tab's lock was still held after 60 s");
                    TimeUnit.MILLISECONDS.sleep(10);
                }
                free.add((System.nanoTime() - died) / 1000);
                heard.add(watcher.awaitNews(died));
            } finally {
                watcher.close();
            }
        }
        Collections.sort(free);
        Collections.sort(heard);
        report.text(
                String.format(
                        """
                **Time to freedom**: an editing tab dies (its live stream's connection is cut, as
                when a browser is killed or a laptop's network drops with the TCP connection reset), with the
                product's default tab grace of 2 s (the time a dropped connection gets to come back), after the
                node notices the cut by a failed keep-alive (up to about a second). %d trials:""",
                        trials));
        report.table(
                List.of("from the tab's death to", "median", "min", "max"),
                List.of(
                        List.of(
                                "the lock free (API on the tab's node, polled every 10 ms)",
                                seconds(at(free, 0.5)),
                                seconds(free.get(0)),
                                seconds(free.get(free.size() - 1))),
                        List.of(
                                "the news on a page on the other node",
                                seconds(at(heard, 0.5)),
                                seconds(heard.get(0)),
                                seconds(heard.get(heard.size() - 1)))));
        report.text(
                """
                A tab that disappears without any connection closing (a frozen or suspended browser) is released
                by its lease instead: at most lease + sweep interval + 1 s (10 s + 2 s by the defaults); the browser tests measure that
                with a `SIGSTOP`ped Chromium (docs/live-screens.md).""");
    }

    private static String seconds(double micros) {
        return String.format("%.2f s", micros / 1e6);
    }

    private static double at(List<Long> values, double quantile) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(
                Math.max(
                        0,
                        Math.min(
                                sorted.size() - 1, (int) Math.ceil(quantile * sorted.size()) - 1)));
    }

    public static void require(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException(what);
        }
    }

    /**
     * One open page: its own session, and its page's live stream, which counts news about locks.
     */
    public static final class PageSocket {
        final String html;
        private final Browser browser;
        private final PageStream stream;
        private volatile CountDownLatch news = new CountDownLatch(1);
        private volatile long arrived;

        PageSocket(PayaraNode node, String user, String path) throws Exception {
            browser = new Browser(URI.create(node.url()));
            require(browser.login(user, "demo").statusCode() == 200, "login of " + user);
            html = browser.get(path).body();
            require(browser.liveAddress().isPresent(), "the page has no live stream");
            stream = browser.openStream(this::onMessage);
            require(stream.status() == 200, "the page's stream was refused: " + stream.status());
        }

        void arm() {
            news = new CountDownLatch(1);
        }

        long awaitNews(long since) {
            try {
                require(news.await(10, TimeUnit.SECONDS), "a page heard nothing within 10 s");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return (arrived - since) / 1000;
        }

        private void onMessage(String data) {
            if (data.contains("\"lock\"") && news.getCount() > 0) {
                arrived = System.nanoTime();
                news.countDown();
            }
        }

        /** The tab dies: the connection is cut. */
        void abort() {
            stream.close();
        }

        /** The tab closes and its user logs out: nothing of this page stays on the node. */
        void close() {
            stream.close();
            browser.post("api/logout");
        }
    }
}
