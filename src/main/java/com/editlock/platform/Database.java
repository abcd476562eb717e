package com.editlock.platform;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The application's one data source. Its URL, user and password come from MicroProfile Config
 * ({@code locks.db.url} / {@code LOCKS_DB_URL}, …); the run command points them at the embedded PostgreSQL when none
 * is configured.
 */
@DataSourceDefinition(
        name = Database.JNDI_NAME,
        className = "org.postgresql.ds.PGSimpleDataSource",
        url = "${MPCONFIG=locks.db.url}",
        user = "${MPCONFIG=locks.db.user}",
        password = "${MPCONFIG=locks.db.password}",
        minPoolSize = 2,
        maxPoolSize = 48)
@ApplicationScoped
public class Database {
    public static final String JNDI_NAME = "java:app/jdbc/editlock";
}
