package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.editlock.launcher.EmbeddedDatabase;
import com.editlock.launcher.PayaraNode;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node whose database stops says so on {@code /health/ready} ({@code 503 DOWN}), so a load balancer can stop sending
 * it users. A database of its own (not the suites' shared one), and a Payara Micro node started directly.
 */
class DatabaseOutageIT {

    @Test
    void readinessGoesDownWhenTheDatabaseStops() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path war = Path.of(System.getProperty("editlock.war"));
        EmbeddedDatabase db = EmbeddedDatabase.throwAway();
        PayaraNode node = null;
        boolean stopped = false;
        try {
            node = PayaraNode.start(Path.of(System.getProperty("payara.microJar")), war,
                    Path.of(System.getProperty("editlock.serverConfig")), port, List.of("-Xmx512m",
                            "-Dlocks.db.url=" + db.jdbcUrl(), "-Dlocks.db.user=" + db.user(),
                            "-Dlocks.db.password=" + db.password()), war.resolveSibling("outage-node.log"));
            node.awaitServing(Duration.ofMinutes(3));
            Browser monitor = new Browser(URI.create(node.url()));
            assertThat(monitor.get("health/ready").statusCode()).isEqualTo(200);

            db.close();
            stopped = true;
            await("DOWN within 2 s of the database stopping").atMost(Duration.ofSeconds(2))
                    .pollInterval(Duration.ofMillis(100)).until(() -> monitor.get("health/ready").statusCode() == 503);
            assertThat(monitor.get("health/ready").body()).contains("\"status\":\"DOWN\"").contains("does not answer");
        } finally {
            if (node != null) {
                node.stop();
            }
            if (!stopped) {
                db.close();
            }
        }
    }
}
