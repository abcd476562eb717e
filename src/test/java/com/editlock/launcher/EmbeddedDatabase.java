package com.editlock.launcher;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real PostgreSQL 17 started from the zonky binaries (they run as root too, unlike Debian's
 * {@code initdb}), listening on loopback only.
 */
public final class EmbeddedDatabase implements AutoCloseable {

    private final EmbeddedPostgres postgres;

    private EmbeddedDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /**
     * Data kept under {@code dataDirectory} across restarts, with durability on (fsync, synchronous
     * commit).
     */
    public static EmbeddedDatabase durable(Path dataDirectory) throws IOException {
        Files.createDirectories(dataDirectory);
        stopLeftover(dataDirectory);
        return new EmbeddedDatabase(
                base().setDataDirectory(dataDirectory)
                        .setCleanDataDirectory(false)
                        .setServerConfig("fsync", "on")
                        .setServerConfig("synchronous_commit", "on")
                        .setServerConfig("full_page_writes", "on")
                        .start());
    }

    /**
     * A database on {@code port} whose data stays in {@code dataDirectory} when it is closed, so it
     * can be stopped and started again at the same address (a database outage). Durability off,
     * like the tests' database; it counts its statements as {@link #counting()} does.
     */
    public static EmbeddedDatabase restartable(Path dataDirectory, int port) throws IOException {
        Files.createDirectories(dataDirectory);
        return new EmbeddedDatabase(
                base().setDataDirectory(dataDirectory)
                        .setCleanDataDirectory(false)
                        .setPort(port)
                        .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                        .setServerConfig("pg_stat_statements.track", "all")
                        .start());
    }

    /**
     * A throw-away database that counts every statement it runs ({@code pg_stat_statements}
     * preloaded; the benchmarks read the database's own counts, not the application's).
     */
    public static EmbeddedDatabase counting() throws IOException {
        return new EmbeddedDatabase(
                base().setServerConfig("shared_preload_libraries", "pg_stat_statements")
                        .setServerConfig("pg_stat_statements.track", "all")
                        .start());
    }

    /** A throw-away database for tests: fast, because durability is off, and deleted on close. */
    public static EmbeddedDatabase throwAway() throws IOException {
        return new EmbeddedDatabase(base().start());
    }

    /**
     * A run that was killed hard (kill -9) leaves its PostgreSQL running on the data directory, and
     * a second server cannot start there. Stop it with a fast shutdown (SIGINT), which PostgreSQL
     * recovers from cleanly.
     */
    private static void stopLeftover(Path dataDirectory) throws IOException {
        Path pidFile = dataDirectory.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        long pid;
        try {
            pid = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
        } catch (RuntimeException e) {
            return; // unreadable: PostgreSQL itself decides whether the file is stale
        }
        var leftover =
                ProcessHandle.of(pid)
                        .filter(ProcessHandle::isAlive)
                        .filter(
                                p ->
                                        p.info()
                                                .command()
                                                .map(c -> c.endsWith("postgres"))
                                                .orElse(false));
        if (leftover.isEmpty()) {
            return;
        }
        System.out.println(
                "Stopping the embedded PostgreSQL that an earlier run left running (pid "
                        + pid
                        + ") …");
        new ProcessBuilder("kill", "-INT", Long.toString(pid)).inheritIO().start();
        try {
            leftover.get().onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IOException(
                    "The embedded PostgreSQL of an earlier run (pid "
                            + pid
                            + ") did not stop; stop it "
                            + "yourself (kill "
                            + pid
                            + ") and start again.",
                    e);
        }
    }

    private static EmbeddedPostgres.Builder base() {
        return EmbeddedPostgres.builder()
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setPGStartupWait(Duration.ofSeconds(60));
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres";
    }

    public String user() {
        return "postgres";
    }

    /** The embedded server trusts local connections; any password works. */
    public String password() {
        return "postgres";
    }

    @Override
    public void close() throws IOException {
        postgres.close();
    }
}
