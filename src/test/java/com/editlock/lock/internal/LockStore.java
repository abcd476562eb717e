package com.editlock.lock.internal;

import com.editlock.launcher.EmbeddedDatabase;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockUnavailableException;
import com.editlock.lock.ResourceCatalog;
import com.editlock.platform.Settings;
import jakarta.transaction.Transactional;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The lock store without an application server: {@link JdbcLockManager} on one embedded PostgreSQL
 * (started once per test JVM, migrated by Flyway from {@code db-migrations/}), with a small
 * stand-in for what the container adds: {@link #inTransaction} is JTA for one thread (a refusal
 * commits, to keep its audit row, as the lock manager's {@code @Transactional} says), retried on
 * transient failures like {@code @RetryTransientFailures}; outside it every connection autocommits,
 * as under {@code @Transactional(NOT_SUPPORTED)}.
 *
 * <p>Keys map to aggregates by id, so every test can use aggregates of its own: {@code
 * configurator:N} and {@code configurator:N:variables} belong to {@code configurator:N}, {@code
 * item:M:filters} to {@code configurator:(M / 100)}.
 */
public final class LockStore implements DataSource {

    private static LockStore shared;

    private final PGSimpleDataSource target;

    /**
     * The connections not in use, shared by every copy of the store ({@link #withStatements}): a
     * copy per planted bug must not open a pool of its own, or a run of them exhausts the
     * database's connection limit.
     */
    private final ConcurrentLinkedDeque<Connection> idle;

    private final ThreadLocal<Connection> current = new ThreadLocal<>();
    private final java.util.Map<String, Runnable> beforeStatement =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * What every statement the lock manager prepares goes through: the identity, or a planted bug.
     */
    private final java.util.function.UnaryOperator<String> statements;

    private LockStore(
            PGSimpleDataSource target,
            ConcurrentLinkedDeque<Connection> idle,
            java.util.function.UnaryOperator<String> statements) {
        this.target = target;
        this.idle = idle;
        this.statements = statements;
    }

    /**
     * The same database, with every statement the lock manager prepares passed through {@code
     * change} first: a copy of the store with a bug planted in its SQL ({@link PlantedBug}).
     */
    public LockStore withStatements(java.util.function.UnaryOperator<String> change) {
        return new LockStore(target, idle, change);
    }

    /** The store of this test JVM; its database lives until the JVM exits. */
    public static synchronized LockStore shared() {
        if (shared == null) {
            try {
                EmbeddedDatabase db = EmbeddedDatabase.throwAway();
                Runtime.getRuntime()
                        .addShutdownHook(
                                new Thread(
                                        () -> {
                                            try {
                                                db.close();
                                            } catch (IOException e) {
                                                throw new UncheckedIOException(e);
                                            }
                                        }));
                shared = on(db);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not start the embedded PostgreSQL", e);
            }
        }
        return shared;
    }

    /** A store on {@code db}, migrated. */
    public static LockStore on(EmbeddedDatabase db) {
        Logger.getLogger("org.flywaydb").setLevel(java.util.logging.Level.WARNING);
        LockStore store = at(db.jdbcUrl(), db.user(), db.password());
        Flyway.configure()
                .dataSource(store.target)
                .locations("filesystem:db-migrations")
                .load()
                .migrate();
        return store;
    }

    /** A store on a database that is already migrated (a benchmark's forked JVM, say). */
    public static LockStore at(String url, String user, String password) {
        PGSimpleDataSource pg = new PGSimpleDataSource();
        pg.setUrl(url);
        pg.setUser(user);
        pg.setPassword(password);
        return new LockStore(
                pg, new ConcurrentLinkedDeque<>(), java.util.function.UnaryOperator.identity());
    }

    /** The catalog described above. */
    public static final ResourceCatalog BY_ID =
            key ->
                    switch (key.kind()) {
                        case CONFIGURATOR, CONFIGURATOR_VARIABLES -> LockKey.configurator(key.id());
                        case ITEM_FILTERS -> LockKey.configurator(key.id() / 100);
                    };

    /** A lock manager on this store with the default settings and {@code lease}. */
    public JdbcLockManager manager(Duration lease) {
        return manager(lease, BY_ID);
    }

    public JdbcLockManager manager(Duration lease, ResourceCatalog catalog) {
        JdbcLockManager locks = new JdbcLockManager();
        locks.dataSource = this;
        locks.catalog = catalog;
        locks.settings = Settings.from(k -> Optional.empty());
        locks.lease = lease;
        return locks;
    }

    /** The administrators' face of this store (find, force release, history, purge). */
    public JdbcLockAdministration administration() {
        JdbcLockAdministration administration = new JdbcLockAdministration();
        administration.dataSource = this;
        return administration;
    }

    /** The hand-over requests over {@code locks}, with their configured timeout. */
    public JdbcHandovers handovers(JdbcLockManager locks) {
        JdbcHandovers handovers = new JdbcHandovers();
        handovers.dataSource = this;
        handovers.locks = locks;
        handovers.settings = locks.settings;
        return handovers;
    }

    /**
     * The node's heartbeats over {@code locks}, with no thread of their own: the caller runs the
     * rounds ({@link NodeHeartbeats#renewNoted()}).
     */
    public NodeHeartbeats heartbeats(JdbcLockManager locks, Duration lease) {
        NodeHeartbeats heartbeats = new NodeHeartbeats();
        heartbeats.locks = locks;
        heartbeats.settings = locks.settings;
        heartbeats.lease = lease;
        return heartbeats;
    }

    /** Work that may throw. */
    public interface Work<T> {
        T run() throws Exception;
    }

    /**
     * Runs {@code work} in one transaction on this thread's connection: every {@code
     * getConnection()} inside it returns that connection; committed at the end, rolled back on an
     * exception, retried on transient failures.
     */
    public <T> T inTransaction(Work<T> work) {
        try {
            return TransientFailures.retry(() -> once(work));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public void inTransaction(Runnable work) {
        inTransaction(
                () -> {
                    work.run();
                    return null;
                });
    }

    /**
     * Runs {@code work}, a call of {@code method} of the lock store (either face), the way its
     * {@code @Transactional} says when nobody calls it inside a transaction: in a transaction
     * (REQUIRED, the default), or without one (SUPPORTS and NOT_SUPPORTED: every statement commits
     * on its own).
     */
    public <T> T asDeclared(String method, Work<T> work) {
        Transactional declared =
                java.util.stream.Stream.of(JdbcLockManager.class, JdbcLockAdministration.class)
                        .flatMap(type -> java.util.Arrays.stream(type.getMethods()))
                        .filter(m -> m.getName().equals(method))
                        .findFirst()
                        .orElseThrow()
                        .getAnnotation(Transactional.class);
        if (declared != null
                && (declared.value() == Transactional.TxType.NOT_SUPPORTED
                        || declared.value() == Transactional.TxType.SUPPORTS)) {
            return unchecked(() -> TransientFailures.retry(work::run));
        }
        return inTransaction(work);
    }

    private <T> T once(Work<T> work) throws Exception {
        if (current.get() != null) {
            throw new IllegalStateException("transactions do not nest here");
        }
        Connection c = borrow();
        c.setAutoCommit(false);
        current.set(c);
        try {
            T result = work.run();
            c.commit();
            return result;
        } catch (LockUnavailableException | com.editlock.lock.HandoverRefusedException e) {
            c.commit(); // as @Transactional(dontRollbackOn = ...): the denial is audited, the
            // request that could not be answered is closed
            throw e;
        } catch (Exception e) {
            c.rollback();
            throw e;
        } finally {
            current.remove();
            c.setAutoCommit(true);
            idle.push(c);
        }
    }

    private Connection borrow() throws SQLException {
        Connection c = idle.poll();
        return c != null ? c : target.getConnection();
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection inTx = current.get();
        Connection c = inTx != null ? inTx : borrow();
        return (Connection)
                Proxy.newProxyInstance(
                        getClass().getClassLoader(),
                        new Class<?>[] {Connection.class},
                        (proxy, method, args) -> {
                            if (method.getName().equals("prepareStatement")
                                    && args[0] instanceof String sql) {
                                Runnable hook = beforeStatement.remove(sql);
                                if (hook != null) {
                                    hook.run();
                                }
                                args[0] = statements.apply(sql);
                            }
                            if (method.getName().equals("close")) {
                                if (inTx == null) {
                                    idle.push(c);
                                }
                                return null;
                            }
                            try {
                                return method.invoke(c, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
    }

    /**
     * Runs {@code action} once, the next time the lock manager prepares exactly {@code sql} (on the
     * preparing thread, before the statement runs): a change made there lands between two
     * statements of one operation.
     */
    public void beforeNext(String sql, Runnable action) {
        beforeStatement.put(sql, action);
    }

    /**
     * A connection of its own, outside the store: the "second connection" that forces an
     * interleaving.
     */
    public Connection separateConnection() throws SQLException {
        return target.getConnection();
    }

    /** Runs one statement on a connection of its own, autocommitted. */
    public int execute(String sql, Object... params) {
        try (Connection c = separateConnection();
                PreparedStatement ps = LockRows.bind(c.prepareStatement(sql), params)) {
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** The rows of a query, each as a list of column values. */
    public List<List<Object>> rows(String sql, Object... params) {
        try (Connection c = separateConnection();
                PreparedStatement ps = LockRows.bind(c.prepareStatement(sql), params);
                ResultSet rs = ps.executeQuery()) {
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** The single value of a query. */
    public long number(String sql, Object... params) {
        return ((Number) rows(sql, params).get(0).get(0)).longValue();
    }

    /** Runs {@code work} with the result of a callable, for lambdas that must throw. */
    static <T> T unchecked(Callable<T> work) {
        try {
            return work.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return false;
    }
}
