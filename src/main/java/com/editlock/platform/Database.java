package com.editlock.platform;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The application's one data source. Its URL, user and password come from MicroProfile Config
 * ({@code locks.db.url} / {@code LOCKS_DB_URL}, …); the run command points them at the embedded
 * PostgreSQL when none is configured.
 */
@DataSourceDefinition(
        name = Database.JNDI_NAME,
        className = "org.postgresql.ds.PGSimpleDataSource",
        url = "${MPCONFIG=locks.db.url}",
        user = "${MPCONFIG=locks.db.user}",
        password = "${MPCONFIG=locks.db.password}",
        // The lock protocol relies on it: each statement sees every grant committed before it
        // began.
        isolationLevel = Connection.TRANSACTION_READ_COMMITTED,
        minPoolSize = 2,
        maxPoolSize = 48,
        properties = {
            // A database that does not answer is told within 2 s (a 503 to the API, a sentence on
            // screens):
            // connecting and logging in are bounded, and so is the wait for a free pooled
            // connection.
            "connectTimeout=2",
            "loginTimeout=2",
            "fish.payara.max-wait-time-in-millis=2000",
            // After the database restarts, the first failed connection discards the pool's other
            // stale ones.
            "fish.payara.fail-all-connections=true",
            // The level is set once per physical connection (and checked at start-up), not on every
            // borrow.
            "fish.payara.is-isolation-level-guaranteed=false"
        })
@ApplicationScoped
public class Database {
    public static final String JNDI_NAME = "java:app/jdbc/editlock";

    /**
     * Refuses a connection that is not at READ COMMITTED: under REPEATABLE READ or SERIALIZABLE the
     * grant would not see locks committed while it waited for the aggregate's advisory lock, and
     * under READ UNCOMMITTED (which PostgreSQL treats as READ COMMITTED, but another configuration
     * might not) the referee would be gone.
     *
     * @throws IllegalStateException naming the level found
     */
    public static void requireReadCommitted(Connection c) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("show transaction_isolation")) {
            rs.next();
            String level = rs.getString(1);
            if (!"read committed".equals(level)) {
                throw new IllegalStateException(
                        "Editlock's locks need the READ COMMITTED isolation level, but the "
                                + "database connection runs at "
                                + level.toUpperCase(java.util.Locale.ROOT)
                                + ". Remove the "
                                + "setting that changes it (default_transaction_isolation on the database or its user, or the "
                                + "data source's isolation level) and start again.");
            }
        }
    }
}
