package com.editlock.it;

import com.editlock.launcher.EmbeddedDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Starts a throw-away embedded PostgreSQL before the integration tests and hands its URL, with the settings the tests
 * rely on, to the Payara Micro that Arquillian starts. Unit tests (no {@code editlock.war} property) start nothing.
 */
public class TestDatabase implements LauncherSessionListener {

    private EmbeddedDatabase database;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (System.getProperty("editlock.war") == null) {
            return;
        }
        try {
            database = EmbeddedDatabase.throwAway();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the embedded PostgreSQL for the tests", e);
        }
        System.setProperty("arq.container.payara.configuration.cmdOptions", String.join(" ",
                "-Xmx512m",
                "-Dlocks.db.url=" + database.jdbcUrl(),
                "-Dlocks.db.user=" + database.user(),
                "-Dlocks.db.password=" + database.password(),
                "-Dlocks.demo.data=true",
                "-Dlocks.lease.seconds=" + TestSettings.LEASE_SECONDS,
                "-Dlocks.sweep.seconds=" + TestSettings.SWEEP_SECONDS,
                "-Dlocks.session.timeout.seconds=" + TestSettings.SESSION_TIMEOUT_SECONDS));
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (database != null) {
            try {
                database.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
