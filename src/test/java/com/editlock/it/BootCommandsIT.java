package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.editlock.launcher.PayaraNode;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Payara Micro only warns when a line of the pre-boot file fails, and starts anyway with the
 * setting left out. Every node the run command and the cluster runs start is refused instead
 * ({@link PayaraNode#awaitServing}): a planted line of Payara 6's that Payara 7 no longer knows
 * stops the start, naming the line; the shipped file starts the node with no failed line.
 */
class BootCommandsIT {

    private static final Path SHIPPED = Path.of(System.getProperty("editlock.serverConfig"));

    @Test
    void aPreBootLineTheRuntimeDoesNotKnowStopsTheNodesStart(@TempDir Path config)
            throws Exception {
        copyServerConfig(config);
        Files.writeString(
                config.resolve("pre-boot-commands.asadmin"),
                "set configs.config.server-config.network-config.protocols.protocol"
                        + ".http-listener.http.xpowered-by=false\n",
                java.nio.file.StandardOpenOption.APPEND);
        PayaraNode node = start(config);
        try {
            assertThatThrownBy(() -> node.awaitServing(Duration.ofMinutes(3)))
                    .hasMessageContaining("pre-boot-commands.asadmin failed")
                    .hasMessageContaining("No configuration found");
        } finally {
            node.stop();
        }
    }

    @Test
    void everyShippedPreBootLineSucceeds(@TempDir Path config) throws Exception {
        copyServerConfig(config);
        PayaraNode node = start(config);
        try {
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            String log = "";
            while (!log.contains("Network Listener http-listener started")
                    && System.nanoTime() < deadline
                    && node.isAlive()) {
                Thread.sleep(200);
                log = Files.exists(node.log()) ? Files.readString(node.log()) : "";
            }
            assertThat(log)
                    .as("the node got as far as its HTTP listener")
                    .contains("Network Listener http-listener started");
            assertThat(log).contains("Boot Command set returned with result SUCCESS");
            assertThat(log).doesNotContain("Boot Command set failed");
        } finally {
            node.stop();
        }
    }

    private static void copyServerConfig(Path to) throws java.io.IOException {
        for (String file : List.of("pre-boot-commands.asadmin", "logging.properties")) {
            Files.copy(SHIPPED.resolve(file), to.resolve(file));
        }
    }

    /** A node with no database: what is checked happens before the application deploys. */
    private static PayaraNode start(Path config) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        return PayaraNode.start(
                Path.of(System.getProperty("payara.microJar")),
                Path.of(System.getProperty("editlock.war")),
                config,
                port,
                List.of("-Xmx256m"),
                config.resolve("node.log"));
    }
}
