package com.editlock.launcher;

import java.io.IOException;
import java.net.ConnectException;
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
 * One Payara Micro process running the Editlock WAR on loopback: Hazelcast off, or, when {@code
 * jvm} names the grid's members ({@code -Dlocks.grid.members=127.0.0.1:6900,127.0.0.1:6901}), a
 * member of the data grid that keeps the HTTP sessions (see {@link Grid}).
 */
public final class PayaraNode {

    private final Process process;
    private final int port;
    private final Path log;

    /** Where this start's lines begin in the log (a node's log is appended to across starts). */
    private final long logStart;

    private PayaraNode(Process process, int port, Path log, long logStart) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.logStart = logStart;
    }

    /**
     * The node's own runtime directory, next to its log and emptied before each start (Payara Micro
     * unpacks itself into it afresh). Without {@code --rootdir} Payara Micro unpacks into a
     * temporary directory and registers it for deletion by a JVM shutdown hook, which runs at the
     * signal — so through its whole shutdown grace a stopping node served with its runtime jars
     * deleted, and a class or text it had not loaded yet could no longer be found (seen in a
     * stopping node's log: {@code Can't find bundle for base name
     * com.sun.enterprise.connectors.LocalStrings}, its jar gone; the likely cause of a page that
     * answered {@code 500} with an empty body at the signal).
     */
    private static Path runtimeDirectory(Path log) throws IOException {
        String name = log.getFileName().toString().replaceFirst("\\.log$", "");
        Path root = log.toAbsolutePath().resolveSibling(name + "-runtime");
        if (Files.exists(root)) {
            try (var walk = Files.walk(root)) {
                for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(root);
        return root;
    }

    /**
     * The options that keep a node's logging open through its stop ({@link KeepLogsAtShutdown}):
     * the class is copied next to the node's log, since the boot class path takes a directory and
     * the test classes as a whole must not be visible to the server's class loaders.
     */
    private static List<String> keepLogsAtShutdown(Path logDirectory) throws IOException {
        String name = KeepLogsAtShutdown.class.getName();
        Path root = logDirectory.resolve("keep-logs");
        Path file = root.resolve(name.replace('.', '/') + ".class");
        Files.createDirectories(file.getParent());
        try (var in =
                KeepLogsAtShutdown.class.getResourceAsStream(
                        KeepLogsAtShutdown.class.getSimpleName() + ".class")) {
            if (in == null) {
                throw new IOException("The class " + name + " is not on the class path");
            }
            Path copy = Files.createTempFile(file.getParent(), "class", ".tmp");
            Files.copy(in, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.move(
                    copy,
                    file,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        return List.of("-Xbootclasspath/a:" + root, "-Djava.util.logging.manager=" + name);
    }

    /**
     * Starts a node; {@code jvm} carries the settings ({@code -Dlocks.db.url=…}). It listens on
     * {@code -Dlocks.bind.address} when {@code jvm} has one, else on 127.0.0.1 only.
     */
    public static PayaraNode start(
            Path microJar, Path war, Path serverConfig, int port, List<String> jvm, Path log)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (jvm.stream().noneMatch(o -> o.startsWith("-Dlocks.bind.address="))) {
            command.add("-Dlocks.bind.address=127.0.0.1");
        }
        Optional<Grid> grid = Grid.of(jvm);
        // The pre-boot commands switch the session store by it: memory, or the grid.
        command.add("-D" + Grid.SWITCH + "=" + grid.isPresent());
        grid.ifPresent(g -> command.addAll(g.jvmOptions()));
        command.addAll(keepLogsAtShutdown(log.toAbsolutePath().getParent()));
        command.addAll(jvm);
        command.addAll(
                List.of(
                        "-jar",
                        microJar.toString(),
                        "--deploy",
                        war.toString(),
                        "--contextroot",
                        "/",
                        "--port",
                        String.valueOf(port)));
        command.addAll(grid.map(Grid::microOptions).orElse(List.of("--nohazelcast")));
        command.addAll(List.of("--rootdir", runtimeDirectory(log).toString()));
        command.addAll(
                List.of(
                        "--logproperties",
                        serverConfig.resolve("logging.properties").toString(),
                        "--prebootcommandfile",
                        serverConfig.resolve("pre-boot-commands.asadmin").toString()));
        long logStart = Files.exists(log) ? Files.size(log) : 0;
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start();
        return new PayaraNode(process, port, log, logStart);
    }

    public String url() {
        return "http://localhost:" + port + "/";
    }

    /**
     * Starts a node and waits until the application answers. A start that has not answered within
     * {@code perTry} is killed and made once more: Payara Micro 7.2026.11 now and then hangs at
     * start, its HK2 start-up threads waiting on each other's locks (seen once in about thirty
     * starts: the notification service adding its configuration while the config-source service
     * reads), and a second start goes through.
     */
    public static PayaraNode startServing(
            Path microJar,
            Path war,
            Path serverConfig,
            int port,
            List<String> jvm,
            Path log,
            Duration perTry)
            throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            PayaraNode node = start(microJar, war, serverConfig, port, jvm, log);
            try {
                node.awaitServing(perTry);
                return node;
            } catch (NoAnswer e) {
                node.kill();
                if (attempt == 2) {
                    throw e;
                }
                System.err.println(
                        "Payara Micro on port "
                                + port
                                + " did not answer within "
                                + perTry.toSeconds()
                                + " s (a start that hangs, as Payara 7.2026.11 now and then does):"
                                + " starting it again.");
            } catch (IOException | RuntimeException e) {
                node.stop();
                throw e;
            } catch (InterruptedException e) {
                node.kill(); // the run command stops while this start is under way
                throw e;
            }
        }
    }

    /** The application did not answer in the time given. */
    static final class NoAnswer extends Launcher.LaunchException {
        private static final long serialVersionUID = 1L;

        NoAnswer(String message) {
            super(message);
        }
    }

    /**
     * Waits for the application's own answer (Payara answers 404 a few seconds before the WAR is
     * deployed).
     */
    public void awaitServing(Duration timeout) throws IOException, InterruptedException {
        HttpClient http =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(2))
                        .build();
        HttpRequest probe =
                HttpRequest.newBuilder(URI.create(url() + "login.xhtml"))
                        .timeout(Duration.ofSeconds(5))
                        .build();
        HttpRequest ready =
                HttpRequest.newBuilder(URI.create(url() + "health/ready"))
                        .timeout(Duration.ofSeconds(5))
                        .build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new Launcher.LaunchException(
                        "Payara Micro stopped while starting. The end of " + log + ":\n" + tail());
            }
            String written = thisStartsLog();
            if (written.contains("Exception while loading the app")) {
                throw new Launcher.LaunchException(
                        "Editlock failed to deploy. The end of " + log + ":\n" + tail());
            }
            if (written.contains(FAILED_BOOT_COMMAND)) {
                throw new Launcher.LaunchException(
                        "A line of server-config/pre-boot-commands.asadmin failed on this Payara"
                                + " Micro (see "
                                + log
                                + "):\n"
                                + failedBootCommands(written));
            }
            try {
                if (http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200
                        && gridReady(
                                http.send(ready, HttpResponse.BodyHandlers.ofString()).body())) {
                    return;
                }
            } catch (ConnectException | java.net.http.HttpTimeoutException e) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new NoAnswer(
                "Editlock did not answer within "
                        + timeout.toSeconds()
                        + " s. The end of "
                        + log
                        + ":\n"
                        + tail());
    }

    /** A check's data in a {@code /health/ready} answer (flat: names and plain values). */
    private static final java.util.regex.Pattern DATA =
            java.util.regex.Pattern.compile("\"data\"\\s*:\\s*\\{[^{}]*\\}");

    /** The data-grid check's object, once the checks' data are taken out. */
    private static final java.util.regex.Pattern GRID_CHECK =
            java.util.regex.Pattern.compile("\\{[^{}]*\"name\"\\s*:\\s*\"data-grid\"[^{}]*\\}");

    /**
     * Whether the application's data-grid check ({@code GridReadiness}) says UP in a {@code
     * /health/ready} answer: a node that joins a grid serves only once the grid has placed its
     * copies, so that the next node of a rolling restart is not signalled while this one holds
     * none. Another check's DOWN (a drain file, the database) is not this wait's business.
     */
    static boolean gridReady(String health) {
        java.util.regex.Matcher check =
                GRID_CHECK.matcher(DATA.matcher(health).replaceAll("\"data\":0"));
        return check.find() && check.group().matches("(?s).*\"status\"\\s*:\\s*\"UP\".*");
    }

    private String thisStartsLog() throws IOException {
        if (!Files.exists(log)) {
            return "";
        }
        byte[] all = Files.readAllBytes(log);
        int from = (int) Math.min(logStart, all.length);
        return new String(all, from, all.length - from, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** What Payara Micro logs, as a warning only, for a pre-boot command that failed. */
    static final String FAILED_BOOT_COMMAND = "Boot Command set failed";

    /** The failed boot commands' lines of a node's log. */
    static String failedBootCommands(String log) {
        return log.lines()
                .filter(line -> line.contains(FAILED_BOOT_COMMAND))
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    public int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    /** {@code kill -9}: the node stops at once, without a shutdown of any kind. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    /** CPU time the node's process has used so far, all its threads together. */
    public java.time.Duration cpuTime() {
        return process.toHandle()
                .info()
                .totalCpuDuration()
                .orElseThrow(
                        () -> new IllegalStateException("This system does not report CPU time"));
    }

    /** The node's process id, as {@code kill} wants it. */
    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The node's log file (Payara's output, appended). */
    public Path log() {
        return log;
    }

    public int port() {
        return port;
    }

    /** SIGTERM, so Payara shuts down cleanly; SIGKILL if it does not within 30 s. */
    public void stop() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }
}
