package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.editlock.it.browser.Browser;
import com.editlock.it.browser.Chromium;
import com.editlock.it.browser.Pages;
import com.editlock.it.node.ApiClient;
import com.editlock.it.node.Cluster;
import com.editlock.it.node.TwoNodes;
import com.editlock.it.reliability.ClusterTorture;
import com.editlock.it.reliability.Reliability;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The short forms of the reliability runs ({@code mvn -Preliability} runs the long ones): two
 * Payara Micro nodes on one PostgreSQL (no Hazelcast, loopback, lease 5 s, sweep 1 s) behind
 * HAProxy, shared with the other two-node suites ({@link TwoNodes}). Users go through the proxy,
 * each to the node a test puts them on (by the proxy's own node cookie); a node's address is used
 * only for what belongs to that node (its health, its log, killing it). Each test leaves both nodes
 * and the database running, and uses records of its own, so the tests do not depend on each other
 * or their order.
 */
class ReliabilityIT {

    /**
     * Each task a thread of its own: the tasks wait on each other, and on Java 25 (unlike 17) an
     * async task without an executor goes to the common pool, which has one worker on two cores.
     */
    private static final java.util.concurrent.ExecutorService ASYNC =
            java.util.concurrent.Executors.newCachedThreadPool(
                    Thread.ofPlatform().daemon().name("async-", 0).factory());

    private static Cluster cluster;
    private static List<String> tortureKeys;
    private static List<String> killKeys;
    private static List<String> otherKeys;
    private static List<String> shutdownKeys;
    private static List<String> sessionKeys;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TwoNodes.behindProxy();
        tortureKeys = cluster.addConfigurators(25);
        killKeys = cluster.addConfigurators(125);
        otherKeys = cluster.addConfigurators(2);
        shutdownKeys = cluster.addConfigurators(5);
        sessionKeys = cluster.addConfigurators(3);
    }

    @Test
    void tortureOverTwoNodesFindsNoConflictNoDeadSaveNoGhostAndNothingLeftBehind()
            throws Exception {
        long[] logsFrom = {
            java.nio.file.Files.size(cluster.log(0)), java.nio.file.Files.size(cluster.log(1))
        };
        ClusterTorture.Result r =
                new ClusterTorture(
                                cluster,
                                tortureKeys,
                                new ClusterTorture.Plan(
                                        8, 4_000, Duration.ofMinutes(3), System.nanoTime(), false))
                        .run();
        System.out.printf(
                "Two-node torture: %,d operations in %d s %s; %s; worst release delays %s%n",
                r.operations(), r.took().toSeconds(), r.counts(), r.report(), r.releaseDelays());
        Reliability.requireClean(cluster, r, logsFrom);
        assertThat(r.counts())
                .containsKeys(
                        "acquired",
                        "refused",
                        "released",
                        "saved",
                        "heartbeat",
                        "screen editing",
                        "screen saved",
                        "screen heartbeat",
                        "tab cut off",
                        "tab left");
        assertThat(r.releaseDelays())
                .containsKeys(
                        "tab closed (stream cut, grace " + Cluster.TAB_GRACE_MILLIS + " ms)",
                        "tab left (its goodbye)",
                        "session ended (logout)");
        assertThat(r.report().saves()).isPositive();
        assertThat(Reliability.count(cluster, tortureKeys)).as("locks left behind").isZero();
    }

    /**
     * Tabs opening and ending by every route (cut off, a polite leave, left open across a logout,
     * across Done, across Save) on both nodes for 30 s while every lock change is told to them, and
     * other sessions' answers checked meanwhile ({@code mvn -Preliability} runs it for 30 minutes).
     * On the WebSocket build the container recycled request objects other requests still used
     * (answers with another client's bytes, requests failing inside it); with the event stream
     * every answer must be right and the node logs must hold no request failing inside the
     * container (docs/live-channel.md).
     */
    @Test
    void tabsEndingByEveryRouteWhileChangesAreToldNeverDisturbAnotherRequest() throws Exception {
        Reliability.Churn w =
                Reliability.tabChurn(cluster, otherKeys.get(4), Duration.ofSeconds(30));
        System.out.println("Tab churn: " + w.summary());
        assertThat(w.routes())
                .as("tabs ended by each route")
                .containsOnlyKeys(Reliability.ROUTES)
                .allSatisfy((route, n) -> assertThat(n).as(route).isGreaterThan(20));
        assertThat(w.streamsRefused()).as("streams refused or unanswered").isZero();
        assertThat(w.corrupted()).as("wrong answers while tabs ended").isEmpty();
        assertThat(w.containerFailures())
                .as("requests failing inside the container (node logs)")
                .isEmpty();
    }

    @Test
    void
            aKilledNodesFiveHundredLocksAreFreedWithinLeaseAndSweepWhileTheOtherNodeServesAndItsPagesSeeIt()
                    throws Exception {
        String watched = killKeys.get(0); // configurator:N, held by a user of the node that dies
        ChromeDriver page = Chromium.available() ? Chromium.start() : null;
        try {
            CompletableFuture<Reliability.NodeKill> kill =
                    CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    return Reliability.nodeKill(
                                            cluster,
                                            killKeys,
                                            otherKeys,
                                            () -> {
                                                if (page != null) { // a page on the surviving node
                                                    // shows the record read-only,
                                                    // then free
                                                    cluster.logIn(page, 1, "ada");
                                                    page.get(
                                                            cluster.userUri(1)
                                                                    + "configurator.xhtml?id="
                                                                    + watched.split(":")[1]);
                                                    await().atMost(Duration.ofSeconds(10))
                                                            .until(
                                                                    () ->
                                                                            page.getPageSource()
                                                                                    .contains(
                                                                                            "data-testid=\"lock-status\""));
                                                }
                                            });
                                } catch (Exception e) {
                                    throw new IllegalStateException(e);
                                }
                            },
                            ASYNC);
            Reliability.NodeKill k = kill.get();
            if (page != null) {
                try {
                    await(
                                    "the surviving node's open page offers editing once the dead node's lock is gone")
                            .atMost(Duration.ofSeconds(10))
                            .pollInterval(Duration.ofMillis(200))
                            .until(
                                    () ->
                                            !page.findElements(
                                                            By.cssSelector(
                                                                    "[data-testid=edit-now]"))
                                                    .isEmpty());
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    throw new AssertionError(
                            "The page says: " + page.findElement(By.tagName("body")).getText(), e);
                }
            }
            System.out.printf(
                    "Node kill: %d locks free after %s; the other node answered %d requests, %d failed%n",
                    k.locks(),
                    Reliability.millis(k.allFreed()),
                    k.survivorRequests(),
                    k.survivorFailures());
            assertThat(k.allFreed())
                    .as("within lease + sweep (and a second)")
                    .isNotNull()
                    .isLessThanOrEqualTo(
                            Duration.ofSeconds(Cluster.LEASE_SECONDS + Cluster.SWEEP_SECONDS + 1));
            assertThat(k.survivorFailures()).isZero();
            assertThat(k.survivorRequests()).isPositive();
        } finally {
            Chromium.quit(page);
        }
    }

    @Test
    void
            theDatabaseDownForThirtySecondsIsToldWithinTwoSecondsLosesNothingAndEverythingRecoversWithoutARestart()
                    throws Exception {
        ChromeDriver editor = Chromium.available() ? Chromium.start() : null;
        List<String> seenOnScreen = new ArrayList<>();
        String configurator = sessionKeys.get(0).split(":")[1];
        try {
            if (editor != null) {
                cluster.logIn(editor, 1, "omar");
                editor.get(cluster.userUri(1) + "configurator.xhtml?id=" + configurator);
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> editor.getPageSource().contains("You are editing"));
            }
            Reliability.Outage o =
                    Reliability.outage(
                            cluster,
                            tortureKeys,
                            Duration.ofSeconds(30),
                            6,
                            System.nanoTime(),
                            () -> {
                                if (editor != null) { // typed during the outage, then Save
                                    editor.findElement(By.id("edit:description"))
                                            .sendKeys(" Typed while the database was down.");
                                    editor.findElement(By.id("edit:save")).click();
                                    await().atMost(Duration.ofSeconds(10))
                                            .until(
                                                    () ->
                                                            editor.getPageSource()
                                                                    .contains(
                                                                            "nothing was changed"));
                                    seenOnScreen.add(
                                            editor.findElement(By.id("edit:description"))
                                                    .getAttribute("value"));
                                }
                            });
            System.out.printf(
                    "Outage 30 s: DOWN after %s, slowest 503 %d ms, UP after %s, granting after %s, lapsed "
                            + "leases removed after %s; load %s, %s%n",
                    Reliability.millis(o.healthDown()),
                    o.slowest503Millis(),
                    Reliability.millis(o.healthUp()),
                    Reliability.millis(o.firstGrants()),
                    Reliability.millis(o.lapsedSwept()),
                    o.load().counts(),
                    o.load().report());
            assertThat(o.healthDown())
                    .as("readiness DOWN within 2 s")
                    .isNotNull()
                    .isLessThanOrEqualTo(Duration.ofSeconds(2));
            assertThat(o.load().counts().get("503 while the store was down"))
                    .as("the outage was felt")
                    .isPositive();
            assertThat(o.slowest503Millis())
                    .as("every call during the outage answered within 2 s")
                    .isLessThanOrEqualTo(2_000);
            assertThat(o.load().samples())
                    .as("nothing but 503 + Retry-After during the outage")
                    .isEmpty();
            assertThat(o.load().violations())
                    .as("nothing granted twice, no save on a dead token")
                    .isEmpty();
            assertThat(o.healthUp())
                    .as("both nodes UP again, without a restart")
                    .isNotNull()
                    .isLessThanOrEqualTo(Duration.ofSeconds(15));
            assertThat(o.firstGrants())
                    .as("both nodes grant again")
                    .isNotNull()
                    .isLessThanOrEqualTo(Duration.ofSeconds(15));
            assertThat(o.lapsedSwept())
                    .as("the sweep removes the leases that ran out meanwhile")
                    .isNotNull()
                    .isLessThanOrEqualTo(Duration.ofSeconds(15));
            if (editor != null) {
                assertThat(seenOnScreen)
                        .singleElement()
                        .asString()
                        .endsWith("Typed while the database was down.");
            }
        } finally {
            Chromium.quit(editor);
        }
    }

    @Test
    void ctrlCWhileLocksAreHeldLeavesNoneBehindAfterTheNextStart() throws Exception {
        Reliability.Shutdown s = Reliability.ctrlC(cluster, shutdownKeys);
        System.out.printf(
                "Ctrl-C with %d locks: %d released by the shutdown, %d left; the node served again after "
                        + "%s%n",
                s.locks(),
                s.releasedAtShutdown(),
                s.leftAfterShutdown(),
                Reliability.millis(s.restart()));
        assertThat(s.releasedAtShutdown()).as("locks the shutdown released").isEqualTo(s.locks());
        assertThat(s.leftAfterShutdown()).as("locks left for the next start").isZero();
        assertThat(Reliability.count(cluster, shutdownKeys)).isZero();
    }

    @Test
    void aLogoutWhileASaveIsInFlightWaitsForTheSaveSoNoSaveLandsAfterItsLockEnded()
            throws Exception {
        String key = sessionKeys.get(4); // configurator:N of the second session configurator
        String id = key.split(":")[1];
        ApiClient sara = cluster.api(0, Duration.ofSeconds(60));
        assertThat(sara.login("sara", "demo").status()).isEqualTo(200);
        assertThat(sara.acquire(key, "WRITE").status()).isEqualTo(201);
        String body = sara.send("GET", "api/configurators/" + id, null).body();
        try (Connection other = cluster.connect()) {
            other.setAutoCommit(false);
            try (PreparedStatement hold =
                    other.prepareStatement(
                            "select 1 from aggregate_version where id = "
                                    + "(select version_id from configurator where id = ?) for update")) {
                hold.setLong(1, Long.parseLong(id));
                hold.executeQuery().close();
            }
            CompletableFuture<ApiClient.Answer> save =
                    CompletableFuture.supplyAsync(
                            () -> sara.send("PUT", "api/configurators/" + id, body), ASYNC);
            awaitWaiting(2); // the save waits for the version row; its lock row is held FOR SHARE
            CompletableFuture<ApiClient.Answer> logout =
                    CompletableFuture.supplyAsync(sara::logout, ASYNC);
            awaitWaiting(3); // the logout's release waits for the save
            assertThat(save.isDone()).isFalse();
            other.commit();
            assertThat(save.get().status()).as("the save ran under its lock").isEqualTo(200);
            assertThat(logout.get().status()).isEqualTo(204);
        }
        try (Connection c = cluster.connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select event_type from lock_event where resource_key = ? order by id desc limit 1")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("SESSION_ENDED");
            }
        }
        assertThat(Reliability.count(cluster, List.of(key))).isZero();
    }

    @Test
    void theSessionIdChangesAtLoginAndTheNewSessionStillReleasesItsLocksWhenItEnds()
            throws Exception {
        String id = sessionKeys.get(8).split(":")[1];
        Browser browser = cluster.browser(1);
        browser.get("login.xhtml");
        assertThat(browser.sessionId())
                .as("the login page opens no session, so there is none to fix")
                .isEmpty();
        browser.login("omar", "demo");
        String after = browser.sessionId().orElseThrow();
        browser.get("configurator.xhtml?id=" + id);
        assertThat(browser.page()).contains("You are editing");
        assertThat(Reliability.count(cluster, List.of("configurator:" + id))).isEqualTo(1);
        browser.post("api/logout");
        assertThat(Reliability.count(cluster, List.of("configurator:" + id))).isZero();
    }

    @Test
    void
            aRedeployWithSessionsOpenReleasesTheirLocksAtOnceAndTheirNextRequestsAreToldWithoutLosingWhatWasTyped()
                    throws Exception {
        java.nio.file.Path exploded = java.nio.file.Files.createTempDirectory("editlock-exploded-");
        com.editlock.launcher.PayaraNode node = cluster.startExploded(exploded);
        try {
            URI base = URI.create(node.url());
            List<String> keys = cluster.addConfigurators(3);
            List<String> held =
                    List.of(
                            keys.get(0),
                            keys.get(5),
                            keys.get(8)); // a whole one, variables, a screen's
            String screenId = keys.get(8).split(":")[1];
            ApiClient omar = new ApiClient(base, Duration.ofSeconds(30));
            assertThat(omar.login("omar", "demo").status()).isEqualTo(200);
            assertThat(omar.acquire(held.get(0), "WRITE").status()).isEqualTo(201);
            assertThat(omar.acquire(held.get(1), "WRITE").status()).isEqualTo(201);
            Browser sara = new Browser(base);
            sara.login("sara", "demo");
            sara.get("configurator.xhtml?id=" + screenId);
            assertThat(sara.page()).contains("You are editing");
            long mark = lastEvent();
            long logBefore = java.nio.file.Files.size(node.log());

            java.nio.file.Files.writeString(
                    exploded.resolve(".reload"), "redeploy"); // Payara Micro redeploys
            await("the sessions' locks end with the old deployment")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> Reliability.count(cluster, held) == 0);
            assertThat(eventsSince(mark, held))
                    .as("released by the sessions' end, not left to the lease")
                    .containsExactlyInAnyOrder(
                            held.get(0) + " SESSION_ENDED",
                            held.get(1) + " SESSION_ENDED",
                            held.get(2) + " SESSION_ENDED");
            await("the new deployment serves")
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(500))
                    .until(
                            () ->
                                    new ApiClient(base, Duration.ofSeconds(5))
                                                    .send("GET", "login.xhtml", null)
                                                    .status()
                                            == 200);

            ApiClient.Answer again = omar.send("GET", "api/locks", null);
            assertThat(again.status())
                    .as("the old API session is gone: log in again")
                    .isEqualTo(401);
            assertThat(again.json().getString("error")).contains("Log in");
            var saved =
                    sara.submit(
                            "edit",
                            java.util.Map.of("edit:name", "Typed before the redeploy"),
                            "edit:save");
            assertThat(saved.statusCode()).isEqualTo(401);
            assertThat(sara.testId("error-message").orElseThrow()).contains("nothing was saved");
            assertThat(sara.testId("typed-values").orElseThrow())
                    .as("what was typed is shown to copy")
                    .contains("Typed before the redeploy");
            assertThat(lastVersionOf(screenId)).as("nothing was saved").isEqualTo(1);

            ApiClient fresh = new ApiClient(base, Duration.ofSeconds(30));
            assertThat(fresh.login("omar", "demo").status()).isEqualTo(200);
            assertThat(fresh.acquire(held.get(0), "WRITE").status())
                    .as("the new deployment grants")
                    .isEqualTo(201);
            assertThat(fresh.release(held.get(0)).status()).isEqualTo(204);
            String log = java.nio.file.Files.readString(node.log()).substring((int) logBefore);
            assertThat(log)
                    .as("the old deployment's feed and sweep stop before its data source goes")
                    .doesNotContain("lock feed cannot read")
                    .doesNotContain("Lock sweep failed")
                    .doesNotContain("could not be released");
        } finally {
            node.stop();
        }
    }

    private static long lastVersionOf(String configuratorId) throws Exception {
        try (Connection c = cluster.connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select v.value from "
                                        + "configurator c join aggregate_version v on v.id = c.version_id where c.id = ?")) {
            ps.setLong(1, Long.parseLong(configuratorId));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static long lastEvent() throws Exception {
        try (Connection c = cluster.connect();
                var s = c.createStatement();
                ResultSet rs = s.executeQuery("select coalesce(max(id), 0) from lock_event")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<String> eventsSince(long mark, List<String> keys) throws Exception {
        List<String> events = new ArrayList<>();
        try (Connection c = cluster.connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select resource_key, event_type from lock_event where id > ? and resource_key = any (?) order by id")) {
            ps.setLong(1, mark);
            ps.setArray(2, c.createArrayOf("varchar", keys.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    events.add(rs.getString(1) + " " + rs.getString(2));
                }
            }
        }
        return events;
    }

    private static void awaitWaiting(int sessions) {
        await().atMost(Duration.ofSeconds(20))
                .until(
                        () -> {
                            try (Connection c = cluster.connect();
                                    var s = c.createStatement();
                                    ResultSet rs =
                                            s.executeQuery(
                                                    "select count(*) from pg_stat_activity where wait_event_type = 'Lock'")) {
                                rs.next();
                                return rs.getInt(1) >= sessions - 1;
                            }
                        });
    }

    @Test
    void omarOnTheSecondNodeSeesSaraLookingFromTheFirstAndSeesHerLeave() throws Exception {
        Chromium.require();
        String id = cluster.addConfigurators(1).get(0).split(":")[1];
        ChromeDriver sara = Chromium.start();
        ChromeDriver omar = Chromium.start();
        try {
            cluster.logIn(sara, 0, "sara");
            sara.get(cluster.userUri(0) + "configurator.xhtml?view=true&id=" + id);
            cluster.logIn(omar, 1, "omar");
            omar.get(cluster.userUri(1) + "configurator.xhtml?view=true&id=" + id);
            await("Omar's page on node 2 lists Sara, who looks from node 1")
                    .atMost(Duration.ofSeconds(3))
                    .until(() -> viewers(omar).contains("Sara"));
            assertThat(viewers(omar)).contains("Omar (you)");
            await("Sara's page on node 1 lists Omar, who joined on node 2")
                    .atMost(Duration.ofSeconds(3))
                    .until(() -> viewers(sara).contains("Omar"));

            sara.get(cluster.userUri(0) + "configurators.xhtml"); // she leaves the record's page
            await("Omar sees Sara leave, without a reload")
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> !viewers(omar).contains("Sara"));
        } finally {
            Chromium.quit(sara);
            Chromium.quit(omar);
        }
    }

    /**
     * A frozen browser ({@code SIGSTOP}: its connections stay open, so no close ever reaches the
     * server, and its heartbeats stop) loses its lock to the lease: ended {@code EXPIRED} within
     * lease + sweep + 1 s of the freeze, and Omar's page on the other node offers editing. Here,
     * where sessions outlive lease + sweep (10 minutes), it is the lease that ends it, not the
     * session.
     */
    @Test
    void aFrozenBrowsersLockEndsByItsLeaseWithinLeaseAndSweepAndOneSecond() throws Exception {
        Chromium.require();
        String key = cluster.addConfigurators(1).get(0);
        String id = key.split(":")[1];
        ChromeDriver sara = Chromium.start();
        ChromeDriver omar = Chromium.start();
        try {
            cluster.logIn(sara, 0, "sara");
            sara.get(cluster.userUri(0) + "configurator.xhtml?id=" + id);
            assertThat(Pages.testId(sara, "lock-status")).isEqualTo("You are editing");
            cluster.logIn(omar, 1, "omar");
            omar.get(cluster.userUri(1) + "configurator.xhtml?id=" + id);
            assertThat(Pages.testId(omar, "lock-status")).startsWith("Being edited by Sara");

            Instant frozenAt = Instant.now();
            Chromium.signal(sara, "STOP");
            Duration bound = Duration.ofSeconds(Cluster.LEASE_SECONDS + Cluster.SWEEP_SECONDS + 1);
            await("Omar's open page on the other node offers editing")
                    .atMost(bound.plusSeconds(1))
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () ->
                                    !omar.findElements(By.cssSelector("[data-testid=edit-now]"))
                                            .isEmpty());
            System.out.printf(
                    "Browser frozen -> Omar's page offers editing after %d ms%n",
                    Duration.between(frozenAt, Instant.now()).toMillis());
            try (var c = cluster.connect();
                    var ps =
                            c.prepareStatement(
                                    "select event_type, occurred_at from lock_event where resource_key = ?"
                                            + " and event_type not in ('ACQUIRED', 'REACQUIRED', 'DENIED')"
                                            + " order by id desc limit 1")) {
                ps.setString(1, key);
                try (var rs = ps.executeQuery()) {
                    assertThat(rs.next()).as("the frozen browser's lock ended").isTrue();
                    assertThat(rs.getString(1)).as("ended by its lease").isEqualTo("EXPIRED");
                    assertThat(rs.getTimestamp(2).toInstant())
                            .as("within lease + sweep + 1 s of the freeze")
                            .isBefore(frozenAt.plus(bound));
                }
            }
        } finally {
            Chromium.signal(sara, "CONT");
            Chromium.quit(sara);
            Chromium.quit(omar);
        }
    }

    /**
     * The viewers line as shown now; a push may replace the element between finding and reading it,
     * then read again.
     */
    private static String viewers(ChromeDriver page) {
        for (int attempt = 1; ; attempt++) {
            try {
                return page.findElements(By.cssSelector("[data-testid=viewers]")).stream()
                        .map(e -> e.getText())
                        .findFirst()
                        .orElse("");
            } catch (StaleElementReferenceException replaced) {
                if (attempt == 5) {
                    throw replaced;
                }
            }
        }
    }
}
