package com.editlock.it.node;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import java.util.logging.Logger;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The PostgreSQL data source with a bug planted in the lock store's SQL, for a node of a test
 * cluster: only a test WAR carries it ({@link PlantedNodes}), which names it in its {@code web.xml}
 * in place of the application's own data source class; the product's WAR has no such class, so
 * nothing a deployment sets can plant a bug.
 *
 * <p>What to change is read from the file the system property {@value #FILE} names, written by the
 * test between runs and read again whenever it changes: {@code match} (the text a statement must
 * contain), {@code statement} (the part to rewrite, or empty for the whole text) and pairs {@code
 * from.N}/{@code to.N}. An empty file plants nothing.
 */
public class PlantedStatementsDataSource extends PGSimpleDataSource {

    private static final long serialVersionUID = 1L;

    /** The system property that names the planted bug's file. */
    public static final String FILE = "editlock.planted.statements";

    private static final Logger LOG = Logger.getLogger(PlantedStatementsDataSource.class.getName());

    private static final Object LOCK = new Object();
    private static long readAt = -1;
    private static Properties planted = new Properties();

    @Override
    public Connection getConnection() throws SQLException {
        return planted(super.getConnection());
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return planted(super.getConnection(user, password));
    }

    private static Connection planted(Connection c) {
        return (Connection)
                Proxy.newProxyInstance(
                        PlantedStatementsDataSource.class.getClassLoader(),
                        new Class<?>[] {Connection.class},
                        (proxy, method, args) -> {
                            if ((method.getName().equals("prepareStatement")
                                            || method.getName().equals("prepareCall"))
                                    && args != null
                                    && args[0] instanceof String sql) {
                                args[0] = rewrite(sql);
                            }
                            try {
                                return method.invoke(c, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
    }

    /** {@code sql} with the planted bug, if one is planted and {@code sql} is its statement. */
    public static String rewrite(String sql) {
        Properties bug = current();
        String match = bug.getProperty("match");
        if (match == null || !sql.contains(match)) {
            return sql;
        }
        String statement = bug.getProperty("statement", "");
        String part = statement.isEmpty() ? sql : statement;
        String changed = part;
        for (int i = 0; bug.getProperty("from." + i) != null; i++) {
            changed = changed.replace(bug.getProperty("from." + i), bug.getProperty("to." + i));
        }
        return statement.isEmpty() ? changed : sql.replace(statement, changed);
    }

    private static Properties current() {
        Path file = Path.of(System.getProperty(FILE, ""));
        synchronized (LOCK) {
            try {
                long modified =
                        Files.exists(file)
                                ? Files.getLastModifiedTime(file).toMillis() ^ Files.size(file)
                                : 0;
                if (modified != readAt) {
                    Properties read = new Properties();
                    if (modified != 0) {
                        try (Reader in = Files.newBufferedReader(file)) {
                            read.load(in);
                        }
                    }
                    planted = read;
                    readAt = modified;
                    LOG.warning("Planted bug now: " + read.getProperty("name", "none"));
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return planted;
        }
    }
}
