package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.editlock.it.browser.Chromium;
import com.editlock.it.browser.Pages;
import com.editlock.it.node.ApiClient;
import com.editlock.it.node.Cluster;
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
import org.junit.jupiter.api.Test;
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
class GridIT {

    private static Cluster cluster;
    private static List<String> keys;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = Cluster.startBehindProxy(2, "grid", List.of("-Dlocks.lease.seconds=60"), true);
        keys = cluster.addConfigurators(2);
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
     * A rolling restart under an open edit page in a real browser: each node in turn is stopped
     * (SIGTERM) and started again while Omar types. He is never asked to log in, his lock never
     * ends, and his Save, after both restarts, stores what he typed under the grant he took.
     */
    @Test
    void aRollingRestartGoesUnnoticedOnAnOpenEditPage() throws Exception {
        Chromium.require();
        String key = "configurator:1";
        ChromeDriver omar = Chromium.start();
        try {
            login(omar, 0, "omar");
            omar.get(cluster.userUri(0) + "configurator.xhtml?id=1");
            assertThat(Pages.testId(omar, "lock-status")).isEqualTo("You are editing");
            long granted = token(key);
            WebElement name = omar.findElement(By.id("edit:name"));
            name.clear();
            name.sendKeys("Typed across a rolling restart");
            for (int n = 0; n < cluster.size(); n++) {
                cluster.node(n).stop();
                cluster.startNode(n);
                omar.findElement(By.id("edit:description")).sendKeys(" Node " + (n + 1) + ".");
                assertThat(ends(key)).as("end rows after node %d restarted", n + 1).isEmpty();
                assertThat(token(key)).as("the grant Omar took").isEqualTo(granted);
            }
            // Past the tab grace, on the nodes that carry his page now: still his.
            await("the lock outlives the tab grace after the restarts")
                    .during(Duration.ofSeconds(Cluster.TAB_GRACE_SECONDS + 3))
                    .atMost(Duration.ofSeconds(Cluster.TAB_GRACE_SECONDS + 10))
                    .until(() -> ends(key).isEmpty());
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
                                            .contains("Typed across a rolling restart"));
            assertThat(ada.send("GET", "api/configurators/1", null).body())
                    .contains(" Node 1. Node 2.");
            assertThat(omar.findElements(By.id("login:username")))
                    .as("never asked to log in")
                    .isEmpty();
            assertThat(ends(key)).as("no end but his own").isSubsetOf(List.of("RELEASED"));
        } finally {
            Chromium.quit(omar);
        }
    }

    /**
     * A node killed outright (SIGKILL: no shutdown, no goodbye) under an open edit page: the page's
     * live stream reconnects through the proxy to the other node, its heartbeats go on there, and
     * Sara's lock and session outlive the kill and the tab grace; her Save stores what she typed.
     */
    @Test
    void aKilledNodeGoesUnnoticedOnAnOpenEditPage() throws Exception {
        Chromium.require();
        String key = "configurator:2";
        ChromeDriver sara = Chromium.start();
        try {
            login(sara, 0, "sara");
            sara.get(cluster.userUri(0) + "configurator.xhtml?id=2");
            assertThat(Pages.testId(sara, "lock-status")).isEqualTo("You are editing");
            long granted = token(key);
            WebElement name = sara.findElement(By.id("edit:name"));
            name.clear();
            name.sendKeys("Typed across a killed node");

            cluster.node(0).kill();
            sara.findElement(By.id("edit:description")).sendKeys(" After the kill.");
            await("the lock outlives the kill past the tab grace")
                    .during(Duration.ofSeconds(Cluster.TAB_GRACE_SECONDS + 5))
                    .atMost(Duration.ofSeconds(Cluster.TAB_GRACE_SECONDS + 15))
                    .until(() -> ends(key).isEmpty());
            assertThat(token(key)).as("the grant Sara took").isEqualTo(granted);
            assertThat(Pages.testId(sara, "lock-status")).isEqualTo("You are editing");

            sara.findElement(By.cssSelector("[data-testid=save]")).click();
            ApiClient ada = cluster.api(1, Duration.ofSeconds(20));
            assertThat(ada.login("ada", "demo").status()).isEqualTo(200);
            await("Sara's save stored what she typed")
                    .atMost(Duration.ofSeconds(10))
                    .until(
                            () ->
                                    ada.send("GET", "api/configurators/2", null)
                                            .body()
                                            .contains("Typed across a killed node"));
            assertThat(ada.send("GET", "api/configurators/2", null).body())
                    .contains(" After the kill.");
            assertThat(sara.findElements(By.id("login:username")))
                    .as("never asked to log in")
                    .isEmpty();
            assertThat(ends(key)).as("no end but her own").isSubsetOf(List.of("RELEASED"));
        } finally {
            Chromium.quit(sara);
        }
    }

    @Test
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
        assertThat(sara.logout().status()).isEqualTo(204);
        assertThat(ends(saras)).containsExactly("SESSION_ENDED");
        assertThat(sara.send("GET", "api/locks", null).status())
                .as("the session ended on every node")
                .isEqualTo(401);

        // The last member stops: no session outlives it, so their locks end with it.
        assertThat(ends(omars)).isEmpty();
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

    /** Logs {@code user} in on node {@code n}, through the proxy. */
    private static void login(ChromeDriver browser, int n, String user) {
        cluster.openLogin(browser, n);
        browser.findElement(By.id("login:username")).sendKeys(user);
        browser.findElement(By.id("login:password")).sendKeys("demo");
        browser.findElement(By.cssSelector("[data-testid=login]")).click();
        await().atMost(Duration.ofSeconds(10))
                .until(
                        () ->
                                !browser.findElements(By.cssSelector("[data-testid=logout]"))
                                        .isEmpty());
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
