package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.editlock.it.node.ApiClient;
import com.editlock.it.node.Cluster;
import com.editlock.it.reliability.ClusterTorture;
import com.editlock.it.reliability.Reliability;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The two-node torture with sessions in the data grid ({@code LOCKS_GRID=true}) while one node is
 * stopped (SIGTERM, as a rolling restart does) and started again mid-run: its users go on through
 * the other node with the same sessions, their tabs' streams open again there, and the independent
 * checker judges every call against the history as it does without a restart — a stop that freed a
 * lock, dropped a renewal it had answered, or let two sessions write would be a violation.
 */
class GridTortureIT {

    /** The tag of the run {@code mvn -Pgrid-torture verify} adds to the integration tests. */
    static final String RESTART_TORTURE = "grid-restart-torture";

    /** History rows the torture must have written before the node stops: it is well under way. */
    private static final int UNDER_WAY = 300;

    /** How long the torture goes on once the restarted node serves again. */
    private static final Duration AFTER_BACK = Duration.ofSeconds(20);

    private static Cluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = Cluster.startBehindProxy(2, "grid-torture", List.of(), true);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * Not in the default {@code mvn verify} (run it with {@code mvn -Pgrid-torture verify}): on two
     * cores node 1, started again under the torture's load, takes 95 to 250 s to serve, so this run
     * costs 4 to 6 minutes. It found two wrong answers, both gone (docs/operations.md): a tab
     * closed in a stopping node's last seconds kept its lock until its lease, and once a page
     * opened at the instant of the signal answered {@code 500}, not seen since; the nodes' logs now
     * keep what a stopping node says.
     */
    @Test
    @org.junit.jupiter.api.Tag(RESTART_TORTURE)
    void aNodeRestartedMidRunLeavesNoViolationAndNoWrongAnswer() throws Exception {
        List<String> keys = cluster.addConfigurators(40);
        long mark = lastEvent();
        long[] logsFrom = {
            java.nio.file.Files.size(cluster.log(0)), java.nio.file.Files.size(cluster.log(1))
        };
        ClusterTorture torture =
                new ClusterTorture(
                        cluster,
                        keys,
                        new ClusterTorture.Plan(
                                8,
                                Long.MAX_VALUE,
                                Duration.ofMinutes(5),
                                System.nanoTime(),
                                false));
        CompletableFuture<ClusterTorture.Result> run =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return torture.run();
                            } catch (Exception e) {
                                throw new java.util.concurrent.CompletionException(e);
                            }
                        });

        // Forced order: the node stops once the run is under way, and serves again before it ends.
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (lastEvent() - mark < UNDER_WAY) {
            assertThat(run).as("the torture runs").isNotDone();
            assertThat(System.nanoTime())
                    .as("the torture is under way within 60 s")
                    .isLessThan(deadline);
            Thread.sleep(200);
        }
        long stopped = System.nanoTime();
        cluster.node(0).stop();
        cluster.startNode(0);
        long back = System.nanoTime();
        assertThat(run).as("the torture still runs once node 1 serves again").isNotDone();
        long eventsAtBack = lastEvent();
        torture.endIn(AFTER_BACK); // both nodes serve on together for a while

        ClusterTorture.Result r = run.get();
        System.out.printf(
                "Grid torture with a restart: %,d operations in %d s, node 1 away %,d ms; %s; %s;"
                        + " worst release delays %s%n",
                r.operations(),
                r.took().toSeconds(),
                Duration.ofNanos(back - stopped).toMillis(),
                r.counts(),
                r.report(),
                r.releaseDelays());
        assertThat(lastEvent())
                .as("the torture went on after node 1 came back")
                .isGreaterThan(eventsAtBack);
        Reliability.requireClean(cluster, r, logsFrom);
        assertThat(r.counts())
                .containsKeys("acquired", "saved", "screen editing", "screen heartbeat");
        assertThat(r.report().saves()).isPositive();
        assertThat(Reliability.count(cluster, keys)).as("locks left behind").isZero();
    }

    /** How long the split case pauses a node: half of the grid's 60 s without heartbeats. */
    private static final Duration PAUSE = Duration.ofSeconds(30);

    /** Omar's page beats while the node is frozen; a beat held up does not hold up the next. */
    private static final java.util.concurrent.ExecutorService BEATS =
            java.util.concurrent.Executors.newCachedThreadPool();

    /**
     * A split: node 1 is paused (SIGSTOP) for 30 s with Sara's save on its way to it, as a node
     * frozen by a long collection or a stalled virtual machine would hold one. Meanwhile her lease
     * lapses (her browser went with her node) and Omar takes the record through node 2, his page
     * beating every 2 s. When node 1 resumes and runs Sara's save, the database refuses it ({@code
     * 409}: the lock it presents is no longer hers), and Omar's save stays: one writer, no stale
     * write, no lost save. The answers given meanwhile are timed: a request whose session the
     * frozen member holds in the grid waits for it (printed, not promised: see docs/operations.md);
     * the database decides regardless, which is why the test watches the history rather than those
     * answers.
     */
    @Test
    void aNodePausedForThirtySecondsLetsNoStaleSaveThrough() throws Exception {
        String key = cluster.addConfigurators(1).get(0);
        String id = key.substring("configurator:".length());
        Duration patience = PAUSE.plusSeconds(90);
        ApiClient sara = cluster.api(0, patience);
        ApiClient omar = cluster.api(1, patience);
        for (var user :
                List.of(java.util.Map.entry("sara", sara), java.util.Map.entry("omar", omar))) {
            assertThat(user.getValue().login(user.getKey(), "demo").status()).isEqualTo(200);
        }
        assertThat(sara.acquire(key, "WRITE").status()).isEqualTo(201);
        long saraToken = cluster.fencingToken(key).orElseThrow();
        String saras =
                renamed(
                        sara.send("GET", "api/configurators/" + id, null).body(),
                        "Sara's stale save");
        // Her save goes to node 1 itself, past the proxy: it reaches the node while it is frozen.
        ApiClient toNode1 = new ApiClient(cluster.uri(0), patience);
        for (String c : sara.cookieHeader().split("; ")) {
            int eq = c.indexOf('=');
            java.net.HttpCookie cookie =
                    new java.net.HttpCookie(c.substring(0, eq), c.substring(eq + 1));
            cookie.setPath("/");
            cookie.setVersion(0);
            toNode1.cookie(cookie);
        }

        long paused = System.nanoTime();
        signal(cluster.node(0).pid(), "STOP");
        CompletableFuture<ApiClient.Answer> stale;
        CompletableFuture<ApiClient.Answer> taken;
        long tookOver;
        java.util.concurrent.ScheduledFuture<?> beating = null;
        try {
            stale =
                    CompletableFuture.supplyAsync(
                            () -> toNode1.send("PUT", "api/configurators/" + id, saras));
            // Her browser is gone with her node: her lease lapses and node 2's sweep ends it.
            await("Sara's lapsed lock ends while node 1 is frozen")
                    .atMost(Duration.ofSeconds(Cluster.LEASE_SECONDS + Cluster.SWEEP_SECONDS + 5))
                    .until(() -> cluster.ends(key).contains("EXPIRED"));
            taken = CompletableFuture.supplyAsync(() -> omar.acquire(key, "WRITE"));
            await("Omar's lock is in the database while node 1 is frozen")
                    .atMost(PAUSE.minusSeconds(2).minusNanos(System.nanoTime() - paused))
                    .until(() -> cluster.fencingToken(key).isPresent());
            tookOver = System.nanoTime() - paused;
            beating =
                    java.util.concurrent.Executors.newSingleThreadScheduledExecutor()
                            .scheduleWithFixedDelay(
                                    () -> BEATS.submit(omar::heartbeat),
                                    0,
                                    2,
                                    java.util.concurrent.TimeUnit.SECONDS);
            assertThat(cluster.fencingToken(key).getAsLong())
                    .as("Omar's grant")
                    .isGreaterThan(saraToken);
            assertThat(stale).as("Sara's save waits in the frozen node").isNotDone();
            Thread.sleep(
                    Math.max(
                            0,
                            PAUSE.toMillis()
                                    - Duration.ofNanos(System.nanoTime() - paused).toMillis()));
        } finally {
            signal(cluster.node(0).pid(), "CONT");
        }
        long resumed = System.nanoTime();
        ApiClient.Answer refused =
                stale.get(patience.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        long refusedAfter = System.nanoTime() - resumed;
        assertThat(refused.status())
                .as("Sara's save, run by node 1 after it resumed: %s", refused.body())
                .isEqualTo(409);
        ApiClient.Answer omars =
                taken.get(patience.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        assertThat(omars.status()).as("Omar's take: %s", omars.body()).isEqualTo(201);
        ApiClient.Answer saved =
                omar.send(
                        "PUT",
                        "api/configurators/" + id,
                        renamed(
                                omar.send("GET", "api/configurators/" + id, null).body(),
                                "Omar's save"));
        assertThat(saved.status()).as("Omar's save: %s", saved.body()).isEqualTo(200);
        beating.cancel(false);
        try (Connection c = cluster.connect();
                PreparedStatement ps =
                        c.prepareStatement("select name from configurator where id = ?")) {
            ps.setLong(1, Long.parseLong(id));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getString(1)).as("the record's name").isEqualTo("Omar's save");
            }
        }
        assertThat(cluster.ends(key)).as("one end: the lapse").containsExactly("EXPIRED");
        System.out.printf(
                "Split (node 1 frozen %d s): Sara's lease lapsed and Omar took the record in the"
                        + " database within %,d ms of the freeze (his answer took %,d ms); Sara's"
                        + " held save refused with 409 %,d ms after the resume, Omar's save stays%n",
                PAUSE.toSeconds(),
                Duration.ofNanos(tookOver).toMillis(),
                omars.micros() / 1000,
                Duration.ofNanos(refusedAfter).toMillis());
        cluster.node(0).awaitServing(Duration.ofMinutes(2));
    }

    private static String renamed(String json, String name) {
        jakarta.json.JsonObject before =
                jakarta.json.Json.createReader(new java.io.StringReader(json)).readObject();
        return jakarta.json.Json.createObjectBuilder(before).add("name", name).build().toString();
    }

    private static void signal(long pid, String signal) throws Exception {
        assertThat(
                        new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                                .inheritIO()
                                .start()
                                .waitFor())
                .as("kill -%s %d", signal, pid)
                .isZero();
    }

    private static long lastEvent() throws Exception {
        try (Connection c = cluster.connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("select coalesce(max(id), 0) from lock_event")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
