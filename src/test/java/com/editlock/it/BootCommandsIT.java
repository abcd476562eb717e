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

    /**
     * The node the run command starts: the stock Payara Micro 7 jar on the toolchain's JDK (21 or
     * later), with a log free of SEVERE lines and of deprecation warnings about Editlock's own
     * descriptors (Payara 7 reports {@code glassfish-web.xml} as deprecated).
     */
    @Test
    void theNodeRunsOnPayaraMicro7AndJava21OrLaterWithACleanLog(@TempDir Path config)
            throws Exception {
        copyServerConfig(config);
        try (com.editlock.launcher.EmbeddedDatabase db =
                com.editlock.launcher.EmbeddedDatabase.throwAway()) {
            PayaraNode node =
                    startServing(
                            config,
                            List.of(
                                    "-Xmx512m",
                                    "-Dlocks.db.url=" + db.jdbcUrl(),
                                    "-Dlocks.db.user=" + db.user(),
                                    "-Dlocks.db.password=" + db.password(),
                                    "-Dlocks.demo.data=true"));
            try {
                String log = Files.readString(node.log());
                assertThat(log).containsPattern("Payara Micro 7\\.\\d{4}\\.\\d+ .*ready in");
                assertThat(log.lines().filter(l -> l.contains(" SEVERE ")))
                        .as("SEVERE lines")
                        .isEmpty();
                assertThat(
                                log.lines()
                                        .filter(
                                                l ->
                                                        l.toLowerCase(java.util.Locale.ROOT)
                                                                .contains("deprecat"))
                                        .filter(
                                                l ->
                                                        l.contains("web.xml")
                                                                || l.contains("editlock")))
                        .as("deprecation warnings about Editlock's descriptors")
                        .isEmpty();
                long feature =
                        ProcessHandle.allProcesses()
                                .filter(
                                        p ->
                                                p.info()
                                                        .commandLine()
                                                        .orElse("")
                                                        .contains(config.toString()))
                                .map(p -> p.info().command().orElse(""))
                                .filter(c -> c.endsWith("java"))
                                .map(c -> runtimeFeature(Path.of(c)))
                                .findFirst()
                                .orElseThrow();
                assertThat(feature)
                        .as("the node's Java feature release")
                        .isGreaterThanOrEqualTo(21);
            } finally {
                node.stop();
            }
        }
    }

    /** The feature release of the JDK a {@code bin/java} belongs to, from its release file. */
    private static long runtimeFeature(Path binJava) {
        try {
            String release = Files.readString(binJava.getParent().getParent().resolve("release"));
            java.util.regex.Matcher version =
                    java.util.regex.Pattern.compile("JAVA_VERSION=\"(\\d+)").matcher(release);
            return version.find() ? Long.parseLong(version.group(1)) : -1;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void copyServerConfig(Path to) throws java.io.IOException {
        for (String file : List.of("pre-boot-commands.asadmin", "logging.properties")) {
            Files.copy(SHIPPED.resolve(file), to.resolve(file));
        }
    }

    /** A node with no database: what is checked happens before the application deploys. */
    private static PayaraNode start(Path config) throws Exception {
        return PayaraNode.start(
                Path.of(System.getProperty("payara.microJar")),
                Path.of(System.getProperty("editlock.war")),
                config,
                freePort(),
                List.of("-Xmx256m"),
                config.resolve("node.log"));
    }

    /** A node that serves (a start that hangs is made once more, as the run command does). */
    private static PayaraNode startServing(Path config, List<String> jvm) throws Exception {
        return PayaraNode.startServing(
                Path.of(System.getProperty("payara.microJar")),
                Path.of(System.getProperty("editlock.war")),
                config,
                freePort(),
                jvm,
                config.resolve("node.log"),
                Duration.ofMinutes(2));
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket free = new ServerSocket(0)) {
            return free.getLocalPort();
        }
    }
}
