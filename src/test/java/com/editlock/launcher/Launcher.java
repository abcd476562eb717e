package com.editlock.launcher;

import com.editlock.platform.DemoData;
import com.editlock.platform.InvalidSettingException;
import com.editlock.platform.Settings;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs Editlock for development and demos: validates the settings, starts the embedded PostgreSQL under
 * {@code ./data} unless {@code LOCKS_DB_URL} names an external one, starts Payara Micro with the WAR on loopback with
 * Hazelcast off, waits until the login page answers and prints {@code ready: http://localhost:PORT/}. Ctrl-C (or
 * SIGTERM) stops Payara and then the database.
 */
public final class Launcher {

    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private Process payara;
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
        ensurePortFree(port);
        List<String> jvm = new ArrayList<>(List.of("-Xmx512m"));
        boolean demo = settings.demoData();
        if (setting("locks.db.url").isEmpty()) {
            Path data = Path.of(setting("locks.data.dir").orElse(required("editlock.dataDir")));
            System.out.println("Starting the embedded PostgreSQL (data in " + data.toAbsolutePath() + ") …");
            database = EmbeddedDatabase.durable(data.resolve("postgres"));
            jvm.add("-Dlocks.db.url=" + database.jdbcUrl());
            jvm.add("-Dlocks.db.user=" + database.user());
            jvm.add("-Dlocks.db.password=" + database.password());
            if (setting(Settings.DEMO_DATA).isEmpty()) {
                demo = true;
                jvm.add("-Dlocks.demo.data=true");
            }
        }
        Path log = Path.of(required("editlock.war")).resolveSibling("payara.log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvm);
        command.addAll(List.of("-jar", required("payara.microJar"),
                "--deploy", required("editlock.war"), "--contextroot", "/",
                "--port", String.valueOf(port), "--nohazelcast",
                "--logproperties", Path.of(required("editlock.serverConfig"), "logging.properties").toString()));
        System.out.println("Starting Payara Micro on port " + port + " (server log: " + log + ") …");
        payara = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        waitUntilServing(port, log);
        System.out.println("ready: http://localhost:" + port + "/");
        if (demo) {
            System.out.println("demo logins (password '" + DemoData.PASSWORD + "'): sara (editor), omar (editor), "
                    + "ada (admin)");
        }
        System.out.println("Press Ctrl-C to stop.");
        return payara.waitFor();
    }

    private void waitUntilServing(int port, Path log) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest probe = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/login.xhtml"))
                .timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!payara.isAlive()) {
                throw new LaunchException("Payara Micro stopped while starting. The end of " + log + ":\n" + tail(log));
            }
            try {
                if (http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (ConnectException | java.net.http.HttpTimeoutException e) {
                // not listening yet
            }
            if (Files.exists(log) && Files.readString(log).contains("Exception while loading the app")) {
                throw new LaunchException("Editlock failed to deploy. The end of " + log + ":\n" + tail(log));
            }
            Thread.sleep(500);
        }
        throw new LaunchException("Editlock did not answer within " + START_TIMEOUT.toSeconds() + " s. The end of "
                + log + ":\n" + tail(log));
    }

    private synchronized void stop() {
        if (payara != null && payara.isAlive()) {
            payara.destroy(); // SIGTERM: Payara shuts down cleanly
            try {
                if (!payara.waitFor(30, TimeUnit.SECONDS)) {
                    payara.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                payara.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        payara = null;
        if (database != null) {
            try {
                database.close();
            } catch (IOException | RuntimeException e) {
                System.err.println("Could not stop the embedded PostgreSQL cleanly: " + e.getMessage());
            }
            database = null;
        }
    }

    private static void ensurePortFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("0.0.0.0", port));
        } catch (IOException e) {
            throw new LaunchException("Port " + port + " is in use: stop what runs there, or choose another port with "
                    + "LOCKS_HTTP_PORT=8081.");
        }
    }

    /** A setting from a system property or its environment variable ({@code locks.db.url} or LOCKS_DB_URL). */
    static Optional<String> setting(String key) {
        return Optional.ofNullable(System.getProperty(key))
                .or(() -> Optional.ofNullable(System.getenv(Settings.environmentName(key))))
                .filter(v -> !v.isBlank());
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new LaunchException("System property " + property + " is not set: start Editlock with mvn -Prun.");
        }
        return value;
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private static final class LaunchException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LaunchException(String message) {
            super(message);
        }
    }
}
