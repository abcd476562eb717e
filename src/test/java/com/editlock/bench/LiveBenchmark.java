package com.editlock.bench;

import com.editlock.it.browser.Browser;
import com.editlock.it.browser.Chromium;
import com.editlock.launcher.EmbeddedDatabase;
import com.editlock.launcher.PayaraNode;
import java.net.URI;
import java.nio.file.Path;
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
 * Run with {@code mvn -Pbench-live}; it prints a Markdown table. With {@code -Dsoak.minutes=10} it
 * then keeps four editing tabs of one browser open and active for that long and counts spurious
 * releases (there must be none).
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
                        PageBenchmarks.fanOut(
                                nodes.get(0), List.of(nodes.get(0)), 1, VIEWERS, ROUNDS));
                List<Long> both = PageBenchmarks.fanOut(nodes.get(0), nodes, 2, VIEWERS, ROUNDS);
                row("two nodes, half on the other one", both);
                int minutes = Integer.getInteger("soak.minutes", 0);
                if (minutes > 0) {
                    soak(nodes.get(0), Duration.ofMinutes(minutes));
                }
            } finally {
                nodes.forEach(PayaraNode::stop);
            }
        }
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
