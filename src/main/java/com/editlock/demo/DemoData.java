package com.editlock.demo;

import com.editlock.platform.Database;
import com.editlock.platform.Settings;
import com.editlock.security.PasswordHashes;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Demo users (sara, omar: editors; ada: admin; password {@code demo}) and a handful of
 * configurators. Installed only when {@code locks.demo.data} is on, which the run command does for
 * the embedded database. Users are added when missing (never overwritten); configurators only into
 * an empty table, so a user's edits survive restarts. Passwords are hashed at install time with the
 * current parameters, by the same code that checks them.
 */
@Startup
@Singleton
@DependsOn("PlatformStartup") // the schema first
@TransactionManagement(TransactionManagementType.BEAN) // one plain JDBC transaction of its own
public class DemoData {

    private static final Logger LOG = Logger.getLogger(DemoData.class.getName());

    /** login, display name, roles. */
    public static final List<String[]> USERS =
            List.of(
                    new String[] {"sara", "Sara", "editor"},
                    new String[] {"omar", "Omar", "editor"},
                    new String[] {"ada", "Ada", "admin"});

    public static final String PASSWORD = "demo";

    private record Item(String name, String price, String... filters) {}

    private record Variable(String name, String type, String value) {}

    private record Sample(
            String name,
            String description,
            String status,
            List<Item> items,
            List<Variable> variables) {}

    private static final List<Sample> SAMPLES =
            List.of(
                    new Sample(
                            "Road bike",
                            "Carbon road bike, built to order.",
                            "ACTIVE",
                            List.of(
                                    new Item(
                                            "Frame",
                                            "1200.00",
                                            "size in (S, M, L, XL)",
                                            "colour != 'neon'"),
                                    new Item("Wheels", "450.00", "rim in (alloy, carbon)"),
                                    new Item("Saddle", "80.00")),
                            List.of(
                                    new Variable("frameSize", "TEXT", "M"),
                                    new Variable("discBrakes", "BOOLEAN", "true"))),
                    new Sample(
                            "Home insurance",
                            "Buildings and contents cover for private homes.",
                            "ACTIVE",
                            List.of(
                                    new Item(
                                            "Buildings cover",
                                            "310.00",
                                            "postcode not in flood_zone"),
                                    new Item("Contents cover", "120.00"),
                                    new Item(
                                            "Accidental damage", "45.00", "contents_cover = true")),
                            List.of(
                                    new Variable("excess", "NUMBER", "250"),
                                    new Variable("region", "TEXT", "North"))),
                    new Sample(
                            "Business laptop",
                            "Laptop bundles for corporate customers.",
                            "DRAFT",
                            List.of(
                                    new Item("Base model", "999.00"),
                                    new Item("Memory upgrade", "150.00", "ram in (32, 64)"),
                                    new Item("Extended warranty", "199.00")),
                            List.of(new Variable("warrantyYears", "NUMBER", "3"))),
                    new Sample(
                            "Savings account",
                            "Fixed-term savings products.",
                            "DRAFT",
                            List.of(
                                    new Item("12-month term", "0.00", "deposit >= 1000"),
                                    new Item("24-month term", "0.00")),
                            List.of(
                                    new Variable("interestRate", "NUMBER", "2.75"),
                                    new Variable("currency", "TEXT", "EUR"))));

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    @Inject PasswordHashes passwordHash;

    @Inject Settings settings;

    @PostConstruct
    void start() {
        if (settings.demoData()) {
            install();
        }
    }

    void install() {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            int users = installUsers(c);
            int configurators = installConfigurators(c);
            c.commit();
            LOG.info(
                    () ->
                            "Demo data: "
                                    + users
                                    + " user(s) and "
                                    + configurators
                                    + " configurator(s) added.");
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Could not install the demo data: " + e.getMessage(), e);
        }
    }

    private int installUsers(Connection c) throws SQLException {
        int added = 0;
        try (PreparedStatement user =
                        c.prepareStatement(
                                "insert into app_user (login, display_name, password_hash)"
                                        + " values (?, ?, ?) on conflict (login) do nothing");
                PreparedStatement role =
                        c.prepareStatement(
                                "insert into app_user_role (login, role) values (?, ?) on conflict do nothing")) {
            for (String[] u : USERS) {
                user.setString(1, u[0]);
                user.setString(2, u[1]);
                user.setString(3, passwordHash.generate(PASSWORD.toCharArray()));
                added += user.executeUpdate();
                role.setString(1, u[0]);
                role.setString(2, u[2]);
                role.executeUpdate();
            }
        }
        return added;
    }

    private int installConfigurators(Connection c) throws SQLException {
        try (PreparedStatement any =
                        c.prepareStatement("select exists (select 1 from configurator)");
                ResultSet rs = any.executeQuery()) {
            rs.next();
            if (rs.getBoolean(1)) {
                return 0;
            }
        }
        for (Sample s : SAMPLES) {
            long version =
                    insertReturningId(
                            c, "insert into aggregate_version (modified_by) values ('demo')");
            long configurator =
                    insertReturningId(
                            c,
                            "insert into configurator (version_id, name, description, status)"
                                    + " values (?, ?, ?, ?)",
                            version,
                            s.name(),
                            s.description(),
                            s.status());
            int position = 0;
            for (Item i : s.items()) {
                long item =
                        insertReturningId(
                                c,
                                "insert into configurator_item (configurator_id, version_id, position,"
                                        + " name, price) values (?, ?, ?, ?, ?)",
                                configurator,
                                version,
                                position++,
                                i.name(),
                                new BigDecimal(i.price()));
                int filterPosition = 0;
                for (String rule : i.filters()) {
                    insertReturningId(
                            c,
                            "insert into item_filter (item_id, version_id, position, rule)"
                                    + " values (?, ?, ?, ?)",
                            item,
                            version,
                            filterPosition++,
                            rule);
                }
            }
            for (Variable v : s.variables()) {
                insertReturningId(
                        c,
                        "insert into configurator_variable (configurator_id, version_id, name, type,"
                                + " value) values (?, ?, ?, ?, ?)",
                        configurator,
                        version,
                        v.name(),
                        v.type(),
                        v.value());
            }
        }
        return SAMPLES.size();
    }

    private static long insertReturningId(Connection c, String sql, Object... params)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql + " returning id")) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
