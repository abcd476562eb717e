package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.editlock.it.browser.Chromium;
import com.editlock.it.browser.Pages;
import com.editlock.it.node.ApiClient;
import com.editlock.it.node.Cluster;
import com.editlock.it.node.TestSettings;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Sessions in the data grid ({@code LOCKS_GRID=true}): two nodes behind HAProxy whose HTTP sessions
 * live in Payara's grid, joined over TCP/IP on loopback. A node that stops ends no session and
 * frees nothing: its users go on through the other node with the same session, their locks and
 * their saves. Only the last member's stop ends the sessions, and with them their locks. The leases
 * are long (60 s) so that only a session's end, never a lapse, could free a lock here.
 *
 * <p>One test, in steps, because each step stands on the one before: the cluster is stopped node by
 * node.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GridIT {

    /** The session timeout here: short, so that the timeout's test waits little. */
    private static final int TIMEOUT_SECONDS = 10;

    private static Cluster cluster;
    private static List<String> keys;

    @BeforeAll
    static void cluster() throws Exception {
        cluster =
                Cluster.startBehindProxy(
                        2,
                        "grid",
                        List.of(
                                "-Dlocks.lease.seconds=60",
                                "-Dlocks.session.timeout.seconds=" + TIMEOUT_SECONDS),
                        true);
        keys = cluster.addConfigurators(3);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Every node serving: a test may have stopped some, and none may rely on another's order. */
    @BeforeEach
    void everyNodeUp() {
        for (int n = 0; n < cluster.size(); n++) {
            if (!cluster.node(n).isAlive()) {
                cluster.startNode(n);
            }
        }
    }

    /**
     * Nodes going away under an open edit page in a real browser: one is stopped (SIGTERM, as a
     * rolling restart does) and started again, then the one that carries the page now is killed
     * outright (SIGKILL: no shutdown, no goodbye) and started again, while Omar types. The page's
     * live stream reconnects through the proxy each time and its heartbeats go on at the other
     * node: he is never asked to log in, his lock keeps its grant past the tab grace, and his Save
     * stores what he typed before, between and after.
     */
    @Test
    @Order(1)
    void aRollingRestartAndAKilledNodeGoUnnoticedOnAnOpenEditPage() throws Exception {
        Chromium.require();
        String key = "configurator:1";
        ChromeDriver omar = Chromium.start();
        try {
            cluster.logIn(omar, 0, "omar");
            omar.get(cluster.userUri(0) + "configurator.xhtml?id=1");
            assertThat(Pages.testId(omar, "lock-status")).isEqualTo("You are editing");
            long granted = token(key);
            WebElement name = omar.findElement(By.id("edit:name"));
            name.clear();
            name.sendKeys("Typed across a restart and a kill");

            cluster.node(0).stop();
            cluster.startNode(0);
            omar.findElement(By.id("edit:description")).sendKeys(" Node 1 restarted.");
            assertThat(ends(key)).as("end rows after node 1 restarted").isEmpty();
            assertThat(omar.manage().getCookieNamed("EDITLOCK_NODE").getValue())
                    .as("the proxy moved Omar to node 2 when node 1 stopped")
                    .isEqualTo("node2");

            cluster.node(1).kill();
            omar.findElement(By.id("edit:description")).sendKeys(" Node 2 killed.");
            await("the lock outlives the kill past the tab grace")
                    .during(Duration.ofSeconds(Cluster.TAB_GRACE_SECONDS + 5))
                    .atMost(Duration.ofSeconds(Cluster.TAB_GRACE_SECONDS + 15))
                    .until(() -> ends(key).isEmpty());
            cluster.startNode(1);
            assertThat(token(key)).as("the grant Omar took").isEqualTo(granted);
            assertThat(Pages.testId(omar, "lock-status")).isEqualTo("You are editing");

            omar.findElement(By.cssSelector("[data-testid=save]")).click();
            ApiClient ada = cluster.api(1, Duration.ofSeconds(20));
            assertThat(ada.login("ada", "demo").status()).isEqualTo(200);
            await("Omar's save stored what he typed")
                    .atMost(Duration.ofSeconds(10))
                    .until(
                            () ->
                                    ada.send("GET", "api/configurators/1", null)
                                            .body()
                                            .contains("Typed across a restart and a kill"));
            assertThat(ada.send("GET", "api/configurators/1", null).body())
                    .contains(" Node 1 restarted. Node 2 killed.");
            assertThat(omar.findElements(By.id("login:username")))
                    .as("never asked to log in")
                    .isEmpty();
            assertThat(ends(key)).as("no end but his own").isSubsetOf(List.of("RELEASED"));
        } finally {
            Chromium.quit(omar);
        }
    }

    /**
     * A session timeout in the grid ends the session once, on one node, within the timeout + 6 s of
     * its user's last request (as on one node: the sessions are looked at every 5 s, and a second
     * for the release) — also when the session moved between nodes and the node it left still holds
     * a copy that saw none of the requests since (that copy once ended it while its user worked on:
     * the planted bug this test was written against).
     */
    @Test
    @Order(2)
    void aSessionThatMovedEndsOnceByItsUsersLastRequestWhereverItWasMade() throws Exception {
        String key = keys.get(8);
        ApiClient sara = cluster.api(0, Duration.ofSeconds(20));
        assertThat(sara.login("sara", "demo").status()).isEqualTo(200);
        assertThat(sara.acquire(key, "WRITE").status()).isEqualTo(201);

        // Her requests now go to node 2 (as after a drain or a restart of node 1), for twice the
        // timeout: node 1's copy of her session sees none of them.
        sara.cookie(cluster.nodeCookie(1).orElseThrow());
        long end = System.nanoTime() + Duration.ofSeconds(2L * TIMEOUT_SECONDS).toNanos();
        while (System.nanoTime() < end) {
            assertThat(sara.heartbeat().status()).as("Sara's heartbeat on node 2").isEqualTo(204);
            assertThat(ends(key)).as("end rows while Sara works on node 2").isEmpty();
            Thread.sleep(2_000); // her page's pace
        }
        assertThat(sara.send("GET", "api/locks", null).status()).isEqualTo(200);
        long last = System.nanoTime();

        // She stops: her session ends once, within the timeout + 6 s of her last request.
        while (ends(key).isEmpty()) {
            assertThat(Duration.ofNanos(System.nanoTime() - last))
                    .as("time since Sara's last request, and still no end of her lock")
                    .isLessThanOrEqualTo(
                            Duration.ofSeconds(TIMEOUT_SECONDS + TestSettings.REAP_SECONDS + 1));
            Thread.sleep(200);
        }
        long endedAfter = Duration.ofNanos(System.nanoTime() - last).toMillis();
        assertThat(endedAfter)
                .as("ms from her last request to the end of her lock")
                .isGreaterThanOrEqualTo(TIMEOUT_SECONDS * 1000L - 1000);
        assertThat(ends(key)).as("one end").containsExactly("SESSION_ENDED");
        assertThat(sara.send("GET", "api/locks", null).status())
                .as("the session is gone on node 2")
                .isEqualTo(401);
        sara.cookie(cluster.nodeCookie(0).orElseThrow());
        assertThat(sara.send("GET", "api/locks", null).status())
                .as("and on node 1, which held an older copy")
                .isEqualTo(401);
        System.out.printf(
                "Session timeout in the grid (%d s): Sara's lock ended %,d ms after her last"
                        + " request, once%n",
                TIMEOUT_SECONDS, endedAfter);
    }

    @Test
    @Order(3) // last: it stops both nodes, which the next test would have to start again
    void aNodeThatStopsEndsNoSessionAndOnlyTheLastMemberFreesTheirLocks() throws Exception {
        String saras = keys.get(0); // configurator:N
        String omars = keys.get(4);

        // The grid listens on loopback only, never on every interface.
        for (int n = 0; n < 2; n++) {
            assertThat(listeners(cluster.gridPort(n)))
                    .as("the grid's socket of node %d", n + 1)
                    .containsExactly("127.0.0.1:" + cluster.gridPort(n));
        }
        assertThat(Files.readString(cluster.log(0)))
                .as("node 1 sees both members")
                .contains("Members {size:2");

        ApiClient sara = cluster.api(0, Duration.ofSeconds(20));
        ApiClient omar = cluster.api(1, Duration.ofSeconds(20));
        assertThat(sara.login("sara", "demo").status()).isEqualTo(200);
        assertThat(omar.login("omar", "demo").status()).isEqualTo(200);
        ApiClient.Answer taken = sara.acquire(saras, "WRITE");
        assertThat(taken.status()).as("Sara takes %s: %s", saras, taken.body()).isEqualTo(201);
        taken = omar.acquire(omars, "WRITE");
        assertThat(taken.status()).as("Omar takes %s: %s", omars, taken.body()).isEqualTo(201);
        long saraToken = token(saras);

        // Their pages beat every 2 s, as open editors do (sessions time out after 10 s here).
        java.util.concurrent.atomic.AtomicBoolean saraWorks =
                new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicReference<Throwable> beatFailed =
                new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.ScheduledExecutorService beats =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        beats.scheduleWithFixedDelay(
                () -> {
                    try {
                        assertThat(omar.heartbeat().status()).as("Omar's beat").isEqualTo(204);
                        synchronized (saraWorks) { // her logout waits for a beat under way
                            if (saraWorks.get()) {
                                assertThat(sara.heartbeat().status())
                                        .as("Sara's beat")
                                        .isEqualTo(204);
                            }
                        }
                    } catch (Throwable t) {
                        beatFailed.compareAndSet(null, t);
                    }
                },
                0,
                2,
                java.util.concurrent.TimeUnit.SECONDS);
        try {
            stopOneThenTheLast(sara, saras, omars, saraToken, saraWorks, beats);
        } finally {
            beats.shutdownNow();
        }
        if (beatFailed.get() != null) {
            throw new AssertionError("a page's heartbeat failed", beatFailed.get());
        }
    }

    private static void stopOneThenTheLast(
            ApiClient sara,
            String saras,
            String omars,
            long saraToken,
            java.util.concurrent.atomic.AtomicBoolean saraWorks,
            java.util.concurrent.ExecutorService beats)
            throws Exception {

        // Sara's node stops (SIGTERM, as a rolling restart does).
        cluster.node(0).stop();

        ApiClient.Answer mine = sara.send("GET", "api/locks", null);
        assertThat(mine.status())
                .as("Sara's session goes on through the other node, not asked to log in")
                .isEqualTo(200);
        assertThat(mine.body()).contains("\"" + saras + "\"");
        assertThat(sara.heartbeat().status()).isEqualTo(204);
        String id = saras.substring("configurator:".length());
        JsonObject before = json(sara.send("GET", "api/configurators/" + id, null).body());
        String renamed =
                before.toString()
                        .replace(
                                "\"name\":\"" + before.getString("name") + "\"",
                                "\"name\":\"Typed before the restart\"");
        ApiClient.Answer saved = sara.send("PUT", "api/configurators/" + id, renamed);
        assertThat(saved.status())
                .as("her save, under the lock she took: %s", saved.body())
                .isEqualTo(200);
        assertThat(ends(saras)).as("end rows of Sara's lock after her node stopped").isEmpty();
        assertThat(ends(omars)).as("end rows of Omar's lock").isEmpty();
        assertThat(token(saras)).as("Sara's lock, the very grant she took").isEqualTo(saraToken);

        // Her logout, taken by the node that did not create her session, frees her lock at once.
        synchronized (saraWorks) {
            saraWorks.set(false);
        }
        assertThat(sara.logout().status()).isEqualTo(204);
        assertThat(ends(saras)).containsExactly("SESSION_ENDED");
        assertThat(sara.send("GET", "api/locks", null).status())
                .as("the session ended on every node")
                .isEqualTo(401);

        // The last member stops: no session outlives it, so their locks end with it.
        assertThat(ends(omars)).isEmpty();
        beats.shutdown();
        assertThat(beats.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        cluster.node(1).stop();
        assertThat(ends(omars)).containsExactly("SESSION_ENDED");
        try (Connection c = cluster.connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select count(*) from app_lock where resource_key = ?")) {
            ps.setString(1, omars);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getInt(1)).as("Omar's lock row").isZero();
            }
        }
    }

    /** The addresses listening on {@code port} on this machine (from {@code /proc/net/tcp}). */
    private static List<String> listeners(int port) throws Exception {
        List<String> found = new ArrayList<>();
        for (String file : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines = Files.readAllLines(java.nio.file.Path.of(file));
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                String[] local = f[1].split(":");
                if (!"0A".equals(f[3]) || Integer.parseInt(local[1], 16) != port) {
                    continue; // not listening, or another port
                }
                found.add(address(local[0]) + ":" + port);
            }
        }
        return found;
    }

    /** An address as {@code /proc/net/tcp} writes it: IPv4 little-endian hex, IPv6 as is. */
    private static String address(String hex) {
        if (hex.length() != 8) {
            return "[" + hex + "]";
        }
        long v = Long.parseLong(hex, 16);
        return (v & 0xff) + "." + ((v >> 8) & 0xff) + "." + ((v >> 16) & 0xff) + "." + (v >> 24);
    }

    /** The fencing token of the live lock on {@code key}. */
    private static long token(String key) throws Exception {
        try (Connection c = cluster.connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select fencing_token from app_lock where resource_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("a live lock on %s", key).isTrue();
                return rs.getLong(1);
            }
        }
    }

    private static JsonObject json(String body) {
        return Json.createReader(new StringReader(body)).readObject();
    }

    private static List<String> ends(String key) throws Exception {
        return cluster.ends(key);
    }
}
