package com.editlock.launcher;

import com.editlock.demo.DemoData;
import com.editlock.platform.InvalidSettingException;
import com.editlock.platform.Settings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs Editlock for development and demos: validates the settings, starts the embedded PostgreSQL
 * under {@code ./data} unless {@code LOCKS_DB_URL} names an external one, starts Payara Micro with
 * the WAR on loopback with Hazelcast off, waits until the login page answers and prints {@code
 * ready: http://localhost:PORT/}. Ctrl-C (or SIGTERM) stops Payara and then the database.
 */
public final class Launcher {

    /** For one start of a node (a start that hangs is made once more). */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final List<PayaraNode> nodes = new ArrayList<>();
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
        for (int i = 0; i < count; i++) {
            ensurePortFree(port + i);
        }
        String bind = bindAddress();
        List<String> jvm = new ArrayList<>(List.of("-Xmx512m", "-Dlocks.bind.address=" + bind));
        boolean demo = settings.demoData();
        if (setting("locks.db.url").isEmpty()) {
            Path data = Path.of(setting("locks.data.dir").orElse(required("editlock.dataDir")));
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
        for (int i = 0; i < count; i++) {
            int nodePort = port + i;
            Path log =
                    Path.of(required("editlock.war"))
                            .resolveSibling(
                                    count == 1 ? "payara.log" : "payara-" + (i + 1) + ".log");
            System.out.println(
                    "Starting Payara Micro on port " + nodePort + " (server log: " + log + ") …");
            PayaraNode node =
                    PayaraNode.startServing(
                            Path.of(required("payara.microJar")),
                            Path.of(required("editlock.war")),
                            Path.of(required("editlock.serverConfig")),
                            nodePort,
                            jvm,
                            log,
                            START_TIMEOUT);
            nodes.add(node);
            System.out.println("ready: " + node.url());
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
                            + ": reachable from other machines. In production put it behind a "
                            + "TLS proxy (see the README).");
        }
        System.out.println("Press Ctrl-C to stop.");
        return nodes.get(0).waitFor();
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
        nodes.forEach(PayaraNode::stop);
        nodes.clear();
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
