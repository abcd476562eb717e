package com.editlock.it.node;

import com.editlock.launcher.EmbeddedDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Starts a throw-away embedded PostgreSQL before the integration tests and hands its URL, with the
 * settings the tests rely on, to the Payara Micro that Arquillian starts. Unit tests (no {@code
 * editlock.war} property) start nothing.
 */
public class TestDatabase implements LauncherSessionListener {

    private static volatile EmbeddedDatabase database;

    /** A connection to the tests' database, for tests that run outside the container. */
    public static java.sql.Connection connect() throws java.sql.SQLException {
        return java.sql.DriverManager.getConnection(
                database.jdbcUrl(), database.user(), database.password());
    }

    /**
     * A configurator of a test's own, named {@code name} (no other test holds or changes it): its
     * id.
     */
    public static long newConfigurator(String name) throws java.sql.SQLException {
        try (java.sql.Connection c = connect();
                var ps =
                        c.prepareStatement(
                                "with v as (insert into aggregate_version (modified_by)"
                                        + " values ('test') returning id)"
                                        + " insert into configurator"
                                        + " (version_id, name, description, status)"
                                        + " select id, ?, '', 'DRAFT' from v returning id")) {
            ps.setString(1, name);
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * A user of a test's own, {@code login} shown as {@code displayName}, with the password {@code
     * right-password} and {@code role}.
     */
    public static void addUser(String login, String displayName, String role)
            throws java.sql.SQLException, java.security.GeneralSecurityException {
        try (java.sql.Connection c = connect();
                var user =
                        c.prepareStatement(
                                "insert into app_user (login, display_name, password_hash)"
                                        + " values (?, ?, ?)");
                var granted =
                        c.prepareStatement(
                                "insert into app_user_role (login, role) values (?, ?)")) {
            user.setString(1, login);
            user.setString(2, displayName);
            user.setString(
                    3,
                    com.editlock.launcher.AddUser.hash(
                            "right-password".toCharArray(), new java.security.SecureRandom()));
            user.executeUpdate();
            granted.setString(1, login);
            granted.setString(2, role);
            granted.executeUpdate();
        }
    }

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (System.getProperty("editlock.war") == null) {
            return;
        }
        try {
            database = EmbeddedDatabase.throwAway();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Could not start the embedded PostgreSQL for the tests", e);
        }
        System.setProperty(
                "arq.container.payara.configuration.cmdOptions",
                String.join(
                        " ",
                        "-Xmx512m",
                        "-Dlocks.bind.address=127.0.0.1",
                        "-Dlocks.db.url=" + database.jdbcUrl(),
                        "-Dlocks.db.user=" + database.user(),
                        "-Dlocks.db.password=" + database.password(),
                        "-Dlocks.demo.data=true",
                        // Every test client comes from 127.0.0.1: the per-address login throttle
                        // would make one test's failed
                        // logins another's 429. The per-account throttle stays as shipped
                        // (EditlockIT tests both).
                        "-Dlocks.login.failures.per.address=100000",
                        "-Dlocks.role.recheck.seconds=" + TestSettings.ROLE_RECHECK_SECONDS,
                        "-Dlocks.lease.seconds=" + TestSettings.LEASE_SECONDS,
                        "-Dlocks.sweep.seconds=" + TestSettings.SWEEP_SECONDS,
                        "-Dlocks.handover.timeout.seconds=" + TestSettings.HANDOVER_TIMEOUT_SECONDS,
                        "-Dlocks.session.timeout.seconds=" + TestSettings.SESSION_TIMEOUT_SECONDS));
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        TwoNodes.stop();
        if (database != null) {
            try {
                database.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
