package com.editlock.launcher;

import com.editlock.demo.DemoData;
import com.editlock.platform.InvalidSettingException;
import com.editlock.platform.Settings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs Editlock for development and demos: validates the settings, starts the embedded PostgreSQL
 * under {@code ./data} unless {@code LOCKS_DB_URL} names an external one, starts Payara Micro with
 * the WAR on loopback with Hazelcast off, waits until the login page answers and prints {@code
 * ready: http://localhost:PORT/}. With {@code LOCKS_NODES} of two or more (or {@code
 * LOCKS_PROXY=on}) the nodes listen on loopback ports of their own and HAProxy takes the port, and
 * TLS with HTTP/2 on {@code LOCKS_HTTPS_PORT}; {@code ready:} then comes once the proxy has reached
 * every node. Ctrl-C (or SIGTERM) stops the proxy, Payara and then the database.
 */
public final class Launcher {

    /** For one start of a node (a start that hangs is made once more). */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final List<PayaraNode> nodes = new ArrayList<>();
    private NodeKeeper keeper;
    private Proxy proxy;
    private EmbeddedDatabase database;

    public static void main(String[] args) throws Exception {
        Launcher launcher = new Launcher();
        Runtime.getRuntime().addShutdownHook(new Thread(launcher::stop, "editlock-stop"));
        int exit;
        try {
            exit = launcher.run();
        } catch (InvalidSettingException | LaunchException e) {
            System.err.println(e.getMessage());
            exit = 1;
        }
        launcher.stop();
        System.exit(exit);
    }

    private int run() throws Exception {
        Settings settings = Settings.from(Launcher::setting);
        int port = settings.httpPort();
        int count = nodeCount();
        boolean proxied = proxied(count);
        int httpsPort = proxied ? httpsPort() : 0;
        String bind = bindAddress();
        if (proxied) {
            Proxy.binary(); // says how to install HAProxy before anything starts
            ensurePortFree(port);
            ensurePortFree(httpsPort);
        } else {
            for (int i = 0; i < count; i++) {
                ensurePortFree(port + i);
            }
        }
        Path data = Path.of(setting("locks.data.dir").orElse(required("editlock.dataDir")));
        List<String> jvm =
                new ArrayList<>(
                        List.of(
                                "-Xmx512m",
                                // Behind the proxy the nodes listen on loopback only.
                                "-Dlocks.bind.address=" + (proxied ? "127.0.0.1" : bind)));
        if (proxied) {
            // The nodes believe X-Forwarded-For from their proxy (and from those the operator
            // named).
            String trusted =
                    setting(Settings.TRUSTED_PROXIES).map(t -> t + ",").orElse("")
                            + "127.0.0.1,::1";
            jvm.add("-D" + Settings.TRUSTED_PROXIES + "=" + trusted);
        }
        boolean demo = settings.demoData();
        if (setting("locks.db.url").isEmpty()) {
            System.out.println(
                    "Starting the embedded PostgreSQL (data in " + data.toAbsolutePath() + ") …");
            database = EmbeddedDatabase.durable(data.resolve("postgres"));
            jvm.add("-Dlocks.db.url=" + database.jdbcUrl());
            jvm.add("-Dlocks.db.user=" + database.user());
            jvm.add("-Dlocks.db.password=" + database.password());
            if (setting(Settings.DEMO_DATA).isEmpty()) {
                demo = true;
                jvm.add("-Dlocks.demo.data=true");
            }
        }
        if (database != null && count > 1) {
            System.out.println(
                    "database: " + database.jdbcUrl() + " (user " + database.user() + ")");
        }
        warnIfTooFewConnections(jvm, count);
        List<Integer> gridPorts = new ArrayList<>();
        if (settings.grid()) {
            // LOCKS_GRID=true: the nodes keep their HTTP sessions in one data grid, joined over
            // TCP/IP on loopback (docs/operations.md, "Sessions in the data grid").
            for (int i = 0; i < count; i++) {
                gridPorts.add(freeLoopbackPort());
            }
            jvm.add(
                    "-Dlocks.grid.members="
                            + String.join(
                                    ",", gridPorts.stream().map(p -> "127.0.0.1:" + p).toList()));
            setting("locks.grid.name").ifPresent(n -> jvm.add("-Dlocks.grid.name=" + n));
        }
        List<Integer> nodePorts = new ArrayList<>();
        List<java.util.concurrent.Callable<PayaraNode>> starts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int nodePort = proxied ? freeLoopbackPort() : port + i;
            nodePorts.add(nodePort);
            Path log =
                    Path.of(required("editlock.war"))
                            .resolveSibling(
                                    count == 1 ? "payara.log" : "payara-" + (i + 1) + ".log");
            List<String> nodeJvm = new ArrayList<>(jvm);
            if (!gridPorts.isEmpty()) {
                nodeJvm.add("-Dlocks.grid.port=" + gridPorts.get(i));
            }
            if (proxied) {
                Path drain = data.resolve("drain").resolve("node-" + (i + 1));
                Files.createDirectories(drain.getParent());
                nodeJvm.add("-D" + Settings.DRAIN_FILE + "=" + drain.toAbsolutePath());
            }
            System.out.println(
                    "Starting Payara Micro on port " + nodePort + " (server log: " + log + ") …");
            starts.add(
                    () ->
                            PayaraNode.startServing(
                                    Path.of(required("payara.microJar")),
                                    Path.of(required("editlock.war")),
                                    Path.of(required("editlock.serverConfig")),
                                    nodePort,
                                    nodeJvm,
                                    log,
                                    START_TIMEOUT));
        }
        startAll(starts);
        for (int i = 0; i < count; i++) {
            PayaraNode node = nodes.get(i);
            System.out.println(
                    proxied
                            ? "node "
                                    + (i + 1)
                                    + ": "
                                    + node.url()
                                    + " (pid "
                                    + node.pid()
                                    + "; drain it: touch "
                                    + data.resolve("drain").resolve("node-" + (i + 1))
                                    + ")"
                            : "ready: " + node.url());
        }
        if (proxied) {
            Path certificate =
                    setting("locks.tls.cert")
                            .map(Path::of)
                            .orElse(data.resolve("tls").resolve("editlock.pem"));
            if (setting("locks.tls.cert").isEmpty()) {
                Proxy.selfSignedCertificate(certificate);
            } else if (!Files.isReadable(certificate)) {
                throw new LaunchException(
                        "LOCKS_TLS_CERT (locks.tls.cert) is '"
                                + certificate
                                + "': no readable file there. It must be one PEM file with the"
                                + " certificate chain and its private key.");
            }
            Path log = Path.of(required("editlock.war")).resolveSibling("haproxy.log");
            System.out.println("Starting HAProxy in front (log: " + log + ") …");
            proxy =
                    Proxy.start(
                            Path.of(required("editlock.serverConfig")).resolve("haproxy.cfg"),
                            data.resolve("proxy"),
                            new Proxy.Plan(
                                    bind,
                                    port,
                                    httpsPort,
                                    certificate,
                                    settings.maxBodyBytes(),
                                    nodePorts,
                                    settings.grid()),
                            log,
                            Duration.ofSeconds(30));
            System.out.println("ready: " + proxy.url());
            System.out.println(
                    "https: "
                            + proxy.httpsUrl()
                            + " (HTTP/2; certificate "
                            + (setting("locks.tls.cert").isEmpty()
                                    ? certificate + ", self-signed: the browser asks once"
                                    : certificate)
                            + ")");
        }
        if (demo) {
            System.out.println(
                    "demo logins (password '"
                            + DemoData.PASSWORD
                            + "'): sara (editor), omar (editor), "
                            + "ada (admin)");
        }
        if (!InetAddress.getByName(bind).isLoopbackAddress()) {
            System.out.println(
                    "listening on "
                            + bind
                            + ": reachable from other machines."
                            + (proxied
                                    ? " Use the https address."
                                    : " In production put it behind the proxy (LOCKS_PROXY=on)."));
        }
        // A node that exits (a rolling restart's SIGTERM, a crash) is started again, as systemd
        // would.
        keeper = new NodeKeeper(nodes, n -> starts.get(n).call(), System.out);
        keeper.start();
        System.out.println(
                "Press Ctrl-C to stop. A node that exits is started again (signal one at a time"
                        + " for a rolling restart).");
        return proxied ? proxy.waitFor() : keeper.awaitStop();
    }

    /**
     * Starts the nodes at once (Flyway's own lock lets one node migrate while the others wait) and
     * keeps them in order; when one cannot start, the others are stopped too.
     */
    private void startAll(List<java.util.concurrent.Callable<PayaraNode>> starts) throws Exception {
        var pool =
                java.util.concurrent.Executors.newFixedThreadPool(
                        starts.size(),
                        Thread.ofPlatform().daemon().name("node-start-", 1).factory());
        try {
            List<java.util.concurrent.Future<PayaraNode>> started = new ArrayList<>();
            for (var start : starts) {
                started.add(pool.submit(start));
            }
            Exception failed = null;
            for (var f : started) {
                try {
                    nodes.add(f.get());
                } catch (java.util.concurrent.ExecutionException e) {
                    if (failed == null) {
                        failed = e.getCause() instanceof Exception cause ? cause : e;
                    }
                }
            }
            if (failed != null) {
                throw failed; // the shutdown hook stops the nodes that did start
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Connections each node's pool may open (Database: maxPoolSize). */
    static final int POOL_PER_NODE = 48;

    /**
     * Warns when the nodes' pools together may need more connections than PostgreSQL allows (its
     * default 100 is exceeded by three nodes): a node then waits for a connection and answers 503.
     */
    private static void warnIfTooFewConnections(List<String> jvm, int count) {
        String url = property(jvm, "locks.db.url").or(() -> setting("locks.db.url")).orElse(null);
        if (url == null) {
            return;
        }
        try (java.sql.Connection c =
                        java.sql.DriverManager.getConnection(
                                url,
                                property(jvm, "locks.db.user")
                                        .or(() -> setting("locks.db.user"))
                                        .orElse(null),
                                property(jvm, "locks.db.password")
                                        .or(() -> setting("locks.db.password"))
                                        .orElse(null));
                java.sql.ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "select current_setting('max_connections')::int"
                                                + " - current_setting('superuser_reserved_connections')::int")) {
            rs.next();
            connectionWarning(count, rs.getInt(1)).ifPresent(System.out::println);
        } catch (java.sql.SQLException e) {
            System.out.println(
                    "WARNING: could not ask the database how many connections it allows: "
                            + e.getMessage());
        }
    }

    /** The warning for {@code nodes} pools against {@code allowed} connections, if one is due. */
    static Optional<String> connectionWarning(int nodes, int allowed) {
        int wanted = nodes * POOL_PER_NODE;
        if (wanted <= allowed) {
            return Optional.empty();
        }
        return Optional.of(
                "WARNING: "
                        + nodes
                        + " nodes may open "
                        + wanted
                        + " database connections ("
                        + POOL_PER_NODE
                        + " each), but PostgreSQL allows "
                        + allowed
                        + ": raise max_connections (or run fewer nodes), or a busy node"
                        + " waits for a connection and answers 503.");
    }

    private static Optional<String> property(List<String> jvm, String key) {
        String prefix = "-D" + key + "=";
        return jvm.stream()
                .filter(a -> a.startsWith(prefix))
                .map(a -> a.substring(prefix.length()))
                .reduce((a, b) -> b);
    }

    /**
     * {@code LOCKS_PROXY} ({@code on}/{@code off}): whether HAProxy runs in front; on by default
     * for two nodes or more.
     */
    private static boolean proxied(int count) {
        String raw = setting("locks.proxy").orElse(count > 1 ? "on" : "off").trim();
        if (!raw.equals("on") && !raw.equals("off")) {
            throw new LaunchException(
                    "LOCKS_PROXY (locks.proxy) is '" + raw + "': it must be on or off.");
        }
        return raw.equals("on");
    }

    /** {@code LOCKS_HTTPS_PORT} (8443): the proxy's TLS port. */
    private static int httpsPort() {
        String raw = setting("locks.https.port").orElse("8443").trim();
        if (!raw.matches("[0-9]{1,5}")
                || Integer.parseInt(raw) < 1
                || Integer.parseInt(raw) > 65_535) {
            throw new LaunchException(
                    "LOCKS_HTTPS_PORT (locks.https.port) is '"
                            + raw
                            + "': it must be a port number from 1 to 65535.");
        }
        return Integer.parseInt(raw);
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * {@code LOCKS_BIND_ADDRESS}: the address Payara listens on, 127.0.0.1 unless set (0.0.0.0 for
     * every interface, or one interface's address). A literal IP address, never a name.
     */
    private static String bindAddress() {
        String raw = setting("locks.bind.address").orElse("127.0.0.1").trim();
        if (!raw.matches("[0-9.]+|[0-9a-fA-F:]+")) {
            throw new LaunchException(
                    "LOCKS_BIND_ADDRESS (locks.bind.address) is '"
                            + raw
                            + "': it must be an IP "
                            + "address such as 127.0.0.1 (the default) or 0.0.0.0.");
        }
        return raw;
    }

    /**
     * {@code LOCKS_NODES} (1–4): how many Payara Micro nodes share the database, on consecutive
     * ports.
     */
    private static int nodeCount() {
        String raw = setting("locks.nodes").orElse("1").trim();
        if (!raw.matches("[1-4]")) {
            throw new LaunchException(
                    "LOCKS_NODES (locks.nodes) is '"
                            + raw
                            + "': it must be a whole number from 1 to"
                            + " 4.");
        }
        return Integer.parseInt(raw);
    }

    private synchronized void stop() {
        if (keeper != null) {
            keeper.stop(); // first: nothing is started again from here on
        }
        if (proxy != null) {
            proxy.close();
            proxy = null;
        }
        synchronized (nodes) {
            nodes.forEach(PayaraNode::stop);
            nodes.clear();
        }
        if (database != null) {
            try {
                database.close();
            } catch (IOException | RuntimeException e) {
                System.err.println(
                        "Could not stop the embedded PostgreSQL cleanly: " + e.getMessage());
            }
            database = null;
        }
    }

    private static void ensurePortFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("0.0.0.0", port));
        } catch (IOException e) {
            throw new LaunchException(
                    "Port "
                            + port
                            + " is in use: stop what runs there, or choose another port with "
                            + "LOCKS_HTTP_PORT=8081.");
        }
    }

    /**
     * A setting from a system property or its environment variable ({@code locks.db.url} or
     * LOCKS_DB_URL).
     */
    static Optional<String> setting(String key) {
        return Optional.ofNullable(System.getProperty(key))
                .or(() -> Optional.ofNullable(System.getenv(Settings.environmentName(key))))
                .filter(v -> !v.isBlank());
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new LaunchException(
                    "System property " + property + " is not set: start Editlock with mvn -Prun.");
        }
        return value;
    }

    static class LaunchException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LaunchException(String message) {
            super(message);
        }
    }
}
