package com.editlock.platform;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Runs before the web module serves: validates the settings (a bad value fails the deployment with
 * a sentence naming the key), refuses a database connection that is not at READ COMMITTED, migrates
 * the schema with Flyway from {@code db-migrations/}. The demo data, when asked for, is installed
 * after it ({@code com.editlock.demo}).
 */
@Startup
@Singleton
@TransactionManagement(TransactionManagementType.BEAN)
public class PlatformStartup {

    private static final Logger LOG = Logger.getLogger(PlatformStartup.class.getName());

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    @Inject Settings settings;

    @PostConstruct
    void start() {
        LOG.info(
                () ->
                        "Editlock settings: lease "
                                + settings.leaseSeconds()
                                + " s, sweep every "
                                + settings.sweepSeconds()
                                + " s, session timeout "
                                + settings.sessionTimeoutSeconds()
                                + " s, demo data "
                                + (settings.demoData() ? "on" : "off"));
        try (var c = dataSource.getConnection()) {
            Database.requireReadCommitted(c);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(
                    "Editlock cannot reach its database: " + e.getMessage(), e);
        }
        var result =
                Flyway.configure()
                        .dataSource(dataSource)
                        .locations("classpath:db/migration")
                        .load()
                        .migrate();
        LOG.info(
                () ->
                        "Schema migrated: "
                                + result.migrationsExecuted
                                + " migration(s) applied, now at version "
                                + (result.targetSchemaVersion == null
                                        ? "(unchanged)"
                                        : result.targetSchemaVersion));
    }
}
