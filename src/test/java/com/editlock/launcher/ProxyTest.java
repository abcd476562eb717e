package com.editlock.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProxyTest {

    private static final Path TEMPLATE = Path.of("server-config", "haproxy.cfg");

    @Test
    void theShippedTemplateBecomesAConfigurationHaproxyAccepts(@TempDir Path dir) throws Exception {
        Path certificate = Proxy.selfSignedCertificate(dir.resolve("tls").resolve("test.pem"));
        assertThat(Files.readString(certificate))
                .contains("BEGIN CERTIFICATE", "BEGIN PRIVATE KEY");
        assertThat(Proxy.selfSignedCertificate(certificate))
                .as("kept after the first start")
                .isEqualTo(certificate);
        String config = rendered(certificate, false);
        assertThat(config).doesNotContainPattern("@[A-Z_]+@");
        assertThat(config)
                .as("sessions in one node: its users stay with it while it drains")
                .contains("    option persist\n");
        assertThat(config)
                .contains(
                        "bind 127.0.0.1:18080 proto h1",
                        "bind 127.0.0.1:18443 ssl crt " + certificate.toAbsolutePath(),
                        "server node1 127.0.0.1:41001 check cookie node1",
                        "server node2 127.0.0.1:41002 check cookie node2",
                        "server last-resort-1 127.0.0.1:41001 backup",
                        "gt 262144");
        accepted(dir, config);
    }

    @Test
    void withSessionsInTheGridANodeGoingDownHandsItsUsersOn(@TempDir Path dir) throws Exception {
        String config =
                rendered(Proxy.selfSignedCertificate(dir.resolve("tls").resolve("test.pem")), true);
        assertThat(config).doesNotContain("    option persist\n").contains("option redispatch");
        accepted(dir, config);
    }

    private static String rendered(Path certificate, boolean sessionsShared) throws Exception {
        return Proxy.render(
                Files.readString(TEMPLATE),
                new Proxy.Plan(
                        "127.0.0.1",
                        18080,
                        18443,
                        certificate,
                        262_144,
                        List.of(41001, 41002),
                        sessionsShared));
    }

    /** HAProxy checks {@code config} and finds nothing to warn about. */
    private static void accepted(Path dir, String config) throws Exception {
        Path file = dir.resolve("haproxy.cfg");
        Files.writeString(file, config);
        // CI installs HAProxy; a machine without it is told how by the run command.
        Process check =
                new ProcessBuilder(Proxy.binary().toString(), "-c", "-f", file.toString())
                        .redirectErrorStream(true)
                        .start();
        String out = new String(check.getInputStream().readAllBytes());
        assertThat(check.waitFor()).as(out).isZero();
        assertThat(out).doesNotContain("[WARNING]", "[ALERT]");
    }

    @Test
    void moreNodesThanTheDatabaseHasConnectionsForIsWarnedAbout() {
        assertThat(Launcher.connectionWarning(2, 97)).isEmpty();
        assertThat(Launcher.connectionWarning(3, 97))
                .hasValueSatisfying(w -> assertThat(w).contains("144", "97", "max_connections"));
        assertThat(Launcher.connectionWarning(4, 297)).isEmpty();
    }
}
