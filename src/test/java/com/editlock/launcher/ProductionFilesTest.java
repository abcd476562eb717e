package com.editlock.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The production files in {@code server-config/} are what their tools accept. */
class ProductionFilesTest {

    private static final Path SYSTEMD_ANALYZE = Path.of("/usr/bin/systemd-analyze");

    @Test
    void theNodeUnitPassesSystemdAnalyzeVerifyAndABrokenOneDoesNot(@TempDir Path home)
            throws Exception {
        Assumptions.assumeTrue(
                Files.isExecutable(SYSTEMD_ANALYZE),
                "no systemd-analyze on this machine: the unit is not checked");
        String unit =
                render(Files.readString(Path.of("server-config", "editlock-node@.service")), home);
        assertThat(unit).doesNotContainPattern("@[A-Z_]+@");
        Files.createDirectories(home.resolve("drain"));
        Files.writeString(
                home.resolve("editlock.env"),
                "LOCKS_DB_URL=jdbc:postgresql://127.0.0.1/editlock\n");
        assertThat(verify(home, unit)).as("systemd-analyze verify says").isEmpty();
        // The check can fail: a unit with a typo is reported.
        assertThat(verify(home, unit.replace("Type=simple", "Type=simpel"))).isNotEmpty();
    }

    /**
     * A node the unit starts unpacks Payara Micro into a directory of its own that no shutdown hook
     * deletes while the node still serves (see {@code PayaraNode}): emptied before each start.
     */
    @Test
    void theNodeUnitGivesEachNodeARuntimeDirectoryOfItsOwn() throws Exception {
        String unit = Files.readString(Path.of("server-config", "editlock-node@.service"));
        String dir = "@EDITLOCK_HOME@/runtime/node-%i";
        assertThat(unit)
                .containsPattern("(?m)^ExecStart=.* --rootdir " + Pattern.quote(dir) + " ")
                .containsPattern("(?m)^ExecStartPre=/bin/rm -rf " + Pattern.quote(dir) + "$")
                .containsPattern("(?m)^ReadWritePaths=@EDITLOCK_HOME@$");
    }

    private static String render(String template, Path home) {
        return template.replace("@EDITLOCK_HOME@", home.toAbsolutePath().toString())
                .replace(
                        "@JAVA@",
                        Path.of(System.getProperty("java.home"), "bin", "java").toString())
                .replace("@USER@", System.getProperty("user.name"));
    }

    /** What systemd-analyze verify prints about the unit instantiated for port 8081. */
    private static String verify(Path home, String unit) throws Exception {
        Path file = home.resolve("editlock-node@8081.service");
        Files.writeString(file, unit);
        Process p =
                new ProcessBuilder(SYSTEMD_ANALYZE.toString(), "verify", file.toString())
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        int exit = p.waitFor();
        return exit == 0 ? out : ("exit " + exit + ": " + out);
    }

    /**
     * The compose file fills in the proxy's template with sed at the proxy's start: every field of
     * the template is filled, and HAProxy accepts the result.
     */
    @Test
    void theComposeProxyFillsEveryFieldAndHaproxyAcceptsTheResult(@TempDir Path dir)
            throws Exception {
        String compose = Files.readString(Path.of("server-config", "container", "compose.yaml"));
        String template = Files.readString(Path.of("server-config", "haproxy.cfg"));
        List<String> sed = new ArrayList<>(List.of("sed"));
        Matcher m = Pattern.compile("-e '([^']*)'").matcher(compose);
        while (m.find()) {
            sed.add("-e");
            sed.add(m.group(1).replace("$$", "$")); // compose's escape for a literal $
        }
        Set<String> fields = new TreeSet<>();
        Matcher f = Pattern.compile("@[A-Z_]+@").matcher(template.replaceAll("(?m)^#.*$", ""));
        while (f.find()) {
            fields.add(f.group());
        }
        assertThat(fields).isNotEmpty();
        for (String field : fields) {
            assertThat(String.join(" ", sed)).as("compose fills " + field).contains(field);
        }
        Path certificate = Proxy.selfSignedCertificate(dir.resolve("editlock.pem"));
        sed.add(dir.resolve("template.cfg").toString());
        Files.writeString(
                dir.resolve("template.cfg"),
                template.replace("@CERTIFICATE@", certificate.toString()));
        Process p = new ProcessBuilder(sed).redirectErrorStream(false).start();
        String rendered = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        assertThat(rendered.replaceAll("(?m)^#.*$", "")).doesNotContainPattern("@[A-Z_]+@");
        assertThat(rendered).contains("server node2 node2:8080 check cookie node2");
        Path file = dir.resolve("haproxy.cfg");
        Files.writeString(
                file,
                rendered.replace("/usr/local/etc/haproxy/editlock.pem", certificate.toString()));
        Process check =
                new ProcessBuilder(Proxy.binary().toString(), "-c", "-f", file.toString())
                        .redirectErrorStream(true)
                        .start();
        String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor()).as(out).isZero();
    }

    @Test
    void theImageIsBuiltFromFilesTheBuildMakes() throws Exception {
        String dockerfile = Files.readString(Path.of("server-config", "container", "Dockerfile"));
        Matcher m = Pattern.compile("(?m)^COPY (?:--\\S+ )*(.+) \\S+$").matcher(dockerfile);
        int copies = 0;
        while (m.find()) {
            for (String source : m.group(1).split(" ")) {
                copies++;
                if (source.startsWith("target/")) {
                    assertThat(source)
                            .as("the WAR the build makes")
                            .isEqualTo(
                                    "target/"
                                            + Path.of(
                                                            System.getProperty(
                                                                    "editlock.war",
                                                                    "target/editlock.war"))
                                                    .getFileName());
                } else {
                    assertThat(Path.of(source)).as(source).isRegularFile();
                }
            }
        }
        assertThat(copies).isEqualTo(3);
        assertThat(dockerfile).contains("FROM payara/micro:" + PAYARA_VERSION);
    }

    /** The Payara Micro version the build runs (pom.xml), which the image must match. */
    private static final String PAYARA_VERSION = payaraVersion();

    private static String payaraVersion() {
        try {
            Matcher m =
                    Pattern.compile("<payara.version>([^<]+)</payara.version>")
                            .matcher(Files.readString(Path.of("pom.xml")));
            return m.find() ? m.group(1) : "?";
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
