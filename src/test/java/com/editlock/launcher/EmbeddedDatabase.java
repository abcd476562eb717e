package com.editlock.launcher;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real PostgreSQL 17 started from the zonky binaries (they run as root too, unlike Debian's {@code initdb}),
 * listening on loopback only.
 */
public final class EmbeddedDatabase implements AutoCloseable {

    private final EmbeddedPostgres postgres;

    private EmbeddedDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /** Data kept under {@code dataDirectory} across restarts, with durability on (fsync, synchronous commit). */
    public static EmbeddedDatabase durable(Path dataDirectory) throws IOException {
        Files.createDirectories(dataDirectory);
        return new EmbeddedDatabase(base()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on")
                .start());
    }

    /** A throw-away database for tests: fast, because durability is off, and deleted on close. */
    public static EmbeddedDatabase throwAway() throws IOException {
        return new EmbeddedDatabase(base().start());
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
