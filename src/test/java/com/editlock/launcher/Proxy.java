package com.editlock.launcher;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * HAProxy in front of the nodes, as production runs it: the configuration is {@code
 * server-config/haproxy.cfg} with its {@code @…@} fields filled in (where to listen, the TLS
 * certificate, the body limit, one {@code server} line per node), checked with {@code haproxy -c}
 * and run in the foreground ({@code -db}) with its log in a file.
 */
public final class Proxy implements AutoCloseable {

    /** Where Debian's package and most others put it; {@code PATH} is searched first. */
    private static final List<String> USUAL_PLACES =
            List.of("/usr/sbin/haproxy", "/usr/local/sbin/haproxy", "/usr/bin/haproxy");

    private final Process process;
    private final Plan plan;
    private final Path log;
    private final Path config;

    private Proxy(Process process, Plan plan, Path log, Path config) {
        this.process = process;
        this.plan = plan;
        this.log = log;
        this.config = config;
    }

    /**
     * What the proxy is told: where it listens, with which certificate, in front of which nodes.
     */
    public record Plan(
            String bind,
            int httpPort,
            int httpsPort,
            Path certificate,
            int maxBodyBytes,
            List<Integer> nodePorts,
            boolean sessionsShared) {}

    /** The HAProxy program, or a sentence saying how to install it. */
    public static Path binary() {
        List<Path> candidates = new ArrayList<>();
        for (String dir :
                Optional.ofNullable(System.getenv("PATH"))
                        .orElse("")
                        .split(java.io.File.pathSeparator)) {
            if (!dir.isBlank()) {
                candidates.add(Path.of(dir, "haproxy"));
            }
        }
        USUAL_PLACES.forEach(p -> candidates.add(Path.of(p)));
        return candidates.stream()
                .filter(Files::isExecutable)
                .findFirst()
                .orElseThrow(
                        () ->
                                new Launcher.LaunchException(
                                        "HAProxy is not installed, and more than one node (or"
                                                + " LOCKS_PROXY=on) runs behind it: install it"
                                                + " with 'sudo apt-get install haproxy' (Debian,"
                                                + " Ubuntu) or your system's package manager,"
                                                + " then start again."));
    }

    /** The configuration for {@code plan}, from the template. */
    public static String render(String template, Plan plan) {
        StringBuilder servers = new StringBuilder();
        for (int i = 0; i < plan.nodePorts().size(); i++) {
            int n = i + 1;
            servers.append("    server node")
                    .append(n)
                    .append(" 127.0.0.1:")
                    .append(plan.nodePorts().get(i))
                    .append(" check cookie node")
                    .append(n)
                    .append('\n');
        }
        // When no node is ready (the database is down for all), new visitors still reach a node,
        // whose own answer says what is wrong and when to try again, instead of the proxy's 503.
        for (int i = 0; i < plan.nodePorts().size(); i++) {
            servers.append("    server last-resort-")
                    .append(i + 1)
                    .append(" 127.0.0.1:")
                    .append(plan.nodePorts().get(i))
                    .append(" backup\n");
        }
        String host = plan.bind().contains(":") ? "[" + plan.bind() + "]" : plan.bind();
        return template.replace("@HTTP_BIND@", host + ":" + plan.httpPort())
                .replace("@HTTPS_BIND@", host + ":" + plan.httpsPort())
                .replace("@CERTIFICATE@", plan.certificate().toAbsolutePath().toString())
                .replace("@MAX_BODY_BYTES@", Integer.toString(plan.maxBodyBytes()))
                .replace("@SERVERS@\n", servers.toString())
                .replace(
                        "    option persist\n",
                        plan.sessionsShared()
                                ? "    # LOCKS_GRID=true: sessions live in the data grid, so a node going DOWN (stopping,"
                                        + " draining)\n    # hands its users to another node.\n"
                                : "    option persist\n");
    }

    /**
     * Writes the configuration into {@code directory}, checks it, starts HAProxy and waits until it
     * answers on both ports and has seen every node ready.
     */
    public static Proxy start(Path template, Path directory, Plan plan, Path log, Duration timeout)
            throws IOException, InterruptedException {
        Path haproxy = binary();
        Files.createDirectories(directory);
        Path config = directory.resolve("haproxy.cfg");
        Files.writeString(config, render(Files.readString(template, StandardCharsets.UTF_8), plan));
        Process check =
                new ProcessBuilder(haproxy.toString(), "-c", "-f", config.toString())
                        .redirectErrorStream(true)
                        .start();
        String checkOutput =
                new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (check.waitFor() != 0) {
            throw new Launcher.LaunchException(
                    "HAProxy refuses its configuration (" + config + "): " + checkOutput.strip());
        }
        return launch(haproxy, plan, config, log, timeout);
    }

    /**
     * Starts HAProxy on {@code config} and waits until it has reached every node; stops it again
     * when it does not.
     */
    private static Proxy launch(Path haproxy, Plan plan, Path config, Path log, Duration timeout)
            throws IOException, InterruptedException {
        // A fresh log each start: HAProxy writes its standard output from the file's start even
        // when it is opened for appending.
        Files.deleteIfExists(log);
        Process process =
                new ProcessBuilder(haproxy.toString(), "-db", "-f", config.toString())
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start();
        Proxy proxy = new Proxy(process, plan, log, config);
        try {
            proxy.awaitPort(timeout);
            proxy.awaitNodes(plan.nodePorts().size(), timeout);
        } catch (IOException | RuntimeException e) {
            proxy.close();
            throw e;
        }
        return proxy;
    }

    /**
     * A restart that takes {@code down}: stops this proxy at once (SIGTERM, HAProxy's hard stop,
     * which closes every connection on both sides), keeps its ports closed until {@code down} after
     * the stop began, then starts it again with the same configuration (a fresh log) and returns it
     * once it has reached every node.
     */
    public Proxy restartAfter(Duration down, Duration timeout)
            throws IOException, InterruptedException {
        long stopping = System.nanoTime();
        close();
        long rest = down.toNanos() - (System.nanoTime() - stopping);
        if (rest > 0) {
            TimeUnit.NANOSECONDS.sleep(rest); // the outage itself, not a wait for something
        }
        Proxy again = launch(binary(), plan, config, log, timeout);
        again.outage = Duration.ofNanos(again.openedAt - stopping);
        return again;
    }

    /**
     * After {@link #restartAfter}: from the stop to the moment the new proxy's port took a
     * connection (the down time asked for, and HAProxy's start).
     */
    private Duration outage = Duration.ZERO;

    public Duration outage() {
        return outage;
    }

    /** When the proxy's plain port first took a connection ({@link System#nanoTime()}). */
    private long openedAt;

    /** Waits until the plain port takes a connection, looking every 5 ms. */
    private void awaitPort(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (java.net.Socket probe = new java.net.Socket()) {
                probe.connect(
                        new java.net.InetSocketAddress(url().getHost(), plan.httpPort()), 1_000);
                openedAt = System.nanoTime();
                return;
            } catch (IOException closed) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new Launcher.LaunchException(
                            "HAProxy did not open port " + plan.httpPort() + "; its log: " + log);
                }
                Thread.sleep(5);
            }
        }
    }

    /**
     * Waits until the proxy answers {@code /health/ready} with 200 as many times in a row as twice
     * the nodes (round robin: every node has answered through it).
     */
    private void awaitNodes(int nodes, Duration timeout) throws IOException, InterruptedException {
        HttpClient http =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(2))
                        .build();
        long deadline = System.nanoTime() + timeout.toNanos();
        int inARow = 0;
        String last = "no answer yet";
        while (inARow < 2 * nodes) {
            if (!process.isAlive()) {
                throw new Launcher.LaunchException(
                        "HAProxy stopped at start (exit "
                                + process.exitValue()
                                + "); its log: "
                                + log);
            }
            if (System.nanoTime() > deadline) {
                throw new Launcher.LaunchException(
                        "HAProxy did not reach every node within "
                                + timeout.toSeconds()
                                + " s (last: "
                                + last
                                + "); its log: "
                                + log);
            }
            try {
                HttpResponse<Void> r =
                        http.send(
                                HttpRequest.newBuilder(url().resolve("health/ready"))
                                        .timeout(Duration.ofSeconds(2))
                                        .build(),
                                HttpResponse.BodyHandlers.discarding());
                last = "status " + r.statusCode();
                inARow = r.statusCode() == 200 ? inARow + 1 : 0;
            } catch (IOException e) {
                last = e.toString();
                inARow = 0;
            }
            if (inARow < 2 * nodes) {
                Thread.sleep(inARow == 0 ? 200 : 20);
            }
        }
    }

    /** The plain HTTP address users are given. */
    public URI url() {
        return URI.create("http://" + host() + ":" + plan.httpPort() + "/");
    }

    /** The TLS address (HTTP/2 or HTTP/1.1, by ALPN). */
    public URI httpsUrl() {
        return URI.create("https://" + host() + ":" + plan.httpsPort() + "/");
    }

    private String host() {
        return plan.bind().equals("127.0.0.1") || plan.bind().equals("0.0.0.0")
                ? "localhost"
                : plan.bind();
    }

    public Path log() {
        return log;
    }

    public int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /**
     * A self-signed certificate for {@code localhost} and 127.0.0.1 as one PEM file (certificate
     * and private key, as HAProxy reads it), made with the JDK's {@code keytool} the first time and
     * kept at {@code pem} after that.
     */
    public static Path selfSignedCertificate(Path pem) throws IOException, InterruptedException {
        if (Files.exists(pem)) {
            return pem;
        }
        Files.createDirectories(pem.getParent());
        Path store = Files.createTempFile(pem.getParent(), "editlock-", ".p12");
        Files.delete(store);
        char[] password = "editlock-local".toCharArray();
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p =
                new ProcessBuilder(
                                keytool.toString(),
                                "-genkeypair",
                                "-alias",
                                "editlock",
                                "-keyalg",
                                "EC",
                                "-groupname",
                                "secp256r1",
                                "-sigalg",
                                "SHA256withECDSA",
                                "-validity",
                                "825",
                                "-dname",
                                "CN=localhost, O=Editlock, OU=self-signed for this machine only",
                                "-ext",
                                "SAN=dns:localhost,ip:127.0.0.1,ip:::1",
                                "-storetype",
                                "PKCS12",
                                "-keystore",
                                store.toString(),
                                "-storepass",
                                new String(password))
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new Launcher.LaunchException("keytool could not make a certificate: " + out);
        }
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (var in = Files.newInputStream(store)) {
                ks.load(in, password);
            }
            PrivateKey key = (PrivateKey) ks.getKey("editlock", password);
            Certificate certificate = ks.getCertificate("editlock");
            Base64.Encoder b64 =
                    Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
            String text =
                    "-----BEGIN CERTIFICATE-----\n"
                            + b64.encodeToString(certificate.getEncoded())
                            + "\n-----END CERTIFICATE-----\n"
                            + "-----BEGIN PRIVATE KEY-----\n"
                            + b64.encodeToString(key.getEncoded())
                            + "\n-----END PRIVATE KEY-----\n";
            Path partial = pem.resolveSibling(pem.getFileName() + ".partial");
            Files.writeString(partial, text, StandardCharsets.US_ASCII);
            try {
                Files.setPosixFilePermissions(
                        partial,
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: its own defaults apply
            }
            Files.move(partial, pem, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("Could not read the certificate keytool made: " + e, e);
        } finally {
            Files.deleteIfExists(store);
        }
        return pem;
    }
}
