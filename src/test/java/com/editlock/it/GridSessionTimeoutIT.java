package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.it.node.ApiClient;
import com.editlock.it.node.Cluster;
import com.editlock.it.node.TestSettings;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A session timeout in the data grid ({@code LOCKS_GRID=true}) ends the session once, on one node,
 * with one {@code SESSION_ENDED} per lock, within the timeout + 6 s of its user's last request (as
 * on one node: the sessions are looked at every 5 s, and a second for the release) — also when the
 * session has moved between nodes, and the node it left still holds a copy that has not seen the
 * requests since. Two grid nodes behind HAProxy, a 10 s session timeout, 60 s leases (only the
 * session's end could free the lock here).
 */
class GridSessionTimeoutIT {

    private static final int TIMEOUT_SECONDS = 10;

    private static Cluster cluster;
    private static List<String> keys;

    @BeforeAll
    static void cluster() throws Exception {
        cluster =
                Cluster.startBehindProxy(
                        2,
                        "gridtimeout",
                        List.of(
                                "-Dlocks.lease.seconds=60",
                                "-Dlocks.session.timeout.seconds=" + TIMEOUT_SECONDS),
                        true);
        keys = cluster.addConfigurators(1);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aSessionThatMovedEndsOnceByItsUsersLastRequestWhereverItWasMade() throws Exception {
        String key = keys.get(0);
        ApiClient sara = cluster.api(0, Duration.ofSeconds(20));
        assertThat(sara.login("sara", "demo").status()).isEqualTo(200);
        assertThat(sara.acquire(key, "WRITE").status()).isEqualTo(201);

        // Her requests now go to node 2 (as after a drain or a restart of node 1), for twice the
        // timeout: node 1's copy of her session has not seen any of them.
        sara.cookie(cluster.nodeCookie(1).orElseThrow());
        long end = System.nanoTime() + Duration.ofSeconds(2L * TIMEOUT_SECONDS).toNanos();
        long last = System.nanoTime();
        while (System.nanoTime() < end) {
            assertThat(sara.heartbeat().status()).as("Sara's heartbeat on node 2").isEqualTo(204);
            last = System.nanoTime();
            assertThat(ends(key)).as("end rows while Sara works on node 2").isEmpty();
            Thread.sleep(2_000);
        }
        assertThat(sara.send("GET", "api/locks", null).status()).isEqualTo(200);
        last = System.nanoTime();

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
        Thread.sleep(TimeUnit.SECONDS.toMillis(5)); // both nodes' checks have run since
        assertThat(ends(key)).as("one end, by one node").containsExactly("SESSION_ENDED");
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

    private static List<String> ends(String key) throws Exception {
        return cluster.ends(key);
    }
}
