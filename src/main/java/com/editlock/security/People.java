package com.editlock.security;

import com.editlock.lock.LockAdministration;
import com.editlock.platform.Database;
import com.editlock.platform.Languages;
import com.editlock.platform.PlainText;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.text.MessageFormat;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The people who may log in, as an admin manages them ({@code /api/people}): each with their roles,
 * what they hold now and when they last made a request. An admin adds a person with a password
 * Editlock makes and shows once, changes their roles, resets their password (a new one, shown
 * once), and <b>disables</b> them: in one transaction the person is marked disabled and their API
 * tokens revoked; then everything they hold is force-released with the admin's reason (their open
 * pages say so, and what they typed stays in their drafts), and their sessions end on every node
 * {@link DisabledPeople#END_AFTER_MILLIS} later ({@link DisabledPeople}). A disabled person logs in
 * by no path: the password check fails for them as for a wrong password, and a token of theirs is
 * refused. Enabling them again lets them log in; their tokens stay revoked.
 *
 * <p>Every change is a row of {@code person_change} with the admin who made it. Nobody disables
 * themselves, and the last enabled admin keeps the admin role: an installation always has someone
 * who can manage it.
 */
@ApplicationScoped
public class People {

    private static final Logger LOG = Logger.getLogger(People.class.getName());

    /** The roles a person may have. */
    public static final Set<String> ROLES = Set.of(Roles.EDITOR, Roles.ADMIN, Roles.TAKE_OVER);

    /** The longest display name, as the user table takes it. */
    public static final int MAX_NAME = 200;

    /** The longest reason for disabling someone, as the history takes it. */
    public static final int MAX_REASON = 500;

    /** How many people one list shows at most (the rest by their login). */
    public static final int MAX_LISTED = 1000;

    /** How many characters a password Editlock makes has (letters and digits: ~119 bits). */
    static final int PASSWORD_LENGTH = 20;

    private static final String PASSWORD_CHARACTERS =
            "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

    private static final SecureRandom RANDOM = new SecureRandom();

    private static final String PERSON =
            "select u.login, u.display_name, u.last_seen_at, u.disabled_at, u.disabled_by,"
                    + " u.disabled_reason,"
                    + " (select count(*) from app_lock l where l.user_login = u.login),"
                    + " (select string_agg(r.role, ',') from app_user_role r"
                    + " where r.login = u.login),"
                    + " u.oidc_subject is not null"
                    + " from app_user u";

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    @Inject PasswordHashes hashes;

    @Inject LockAdministration administration;

    @Inject com.editlock.platform.Settings settings;

    /** A person as the people screen shows them. */
    public record Person(
            String login,
            String name,
            Set<String> roles,
            long held,
            Instant lastSeen,
            Instant disabledAt,
            String disabledBy,
            String disabledReason,
            boolean viaProvider) {

        public boolean isDisabled() {
            return disabledAt != null;
        }
    }

    /** A person just added, with the password they log in with, shown this once. */
    public record Added(Person person, String password) {}

    /** One change to a person, with the admin who made it. */
    public record Change(
            long id, String login, String by, Instant at, String change, String detail) {}

    /**
     * A request about people that cannot be done: its HTTP status and a sentence ({@link #key()}
     * with {@link #args()} in the screens' bundle; the message is its English).
     */
    public static final class PersonException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int status;
        private final String key;
        private final transient Object[] args;

        PersonException(int status, String key, Object... args) {
            super(english(key, args));
            this.status = status;
            this.key = key;
            this.args = args.clone();
        }

        /** 400, 404 or 409. */
        public int status() {
            return status;
        }

        /** The sentence's key in {@code com.editlock.platform.Text}. */
        public String key() {
            return key;
        }

        /** What goes into the sentence's places. */
        public Object[] args() {
            return args.clone();
        }

        private static String english(String key, Object... args) {
            String pattern = Languages.text(Locale.ENGLISH).getString(key);
            return args.length == 0
                    ? pattern
                    : new MessageFormat(pattern, Locale.ENGLISH).format(args);
        }
    }

    /** Who changed a person when the provider did (a first login, roles from its groups). */
    public static final String PROVIDER = "provider";

    /**
     * The person the provider's {@code issuer} knows as {@code subject}, after a login through it:
     * created at their first login (login from {@code preferredLogin}, lower case), their name and
     * roles written again at each one (a change of roles is kept in {@code person_change} as made
     * by {@value #PROVIDER}).
     *
     * @throws PersonException 403 when an admin disabled them; 409 when their first login would
     *     take the login of someone who logs in another way; 400 when the provider's name for them
     *     is not a login Editlock takes
     */
    public Person fromProvider(
            String issuer,
            String subject,
            String preferredLogin,
            String name,
            Collection<String> roles) {
        String checkedName = checkedName(name);
        Set<String> checkedRoles = checkedRoles(roles);
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            String login;
            try {
                login = linked(c, issuer, subject);
                if (login == null) {
                    login = preferredLogin == null ? "" : preferredLogin.toLowerCase(Locale.ROOT);
                    if (!EditlockIdentityStore.isLogin(login)) {
                        throw new PersonException(
                                400, "people.error.providerLogin", String.valueOf(preferredLogin));
                    }
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "insert into app_user (login, display_name, password_hash,"
                                            + " oidc_issuer, oidc_subject) values (?, ?, null, ?,"
                                            + " ?) on conflict do nothing")) {
                        ps.setString(1, login);
                        ps.setString(2, checkedName);
                        ps.setString(3, issuer);
                        ps.setString(4, subject);
                        if (ps.executeUpdate() == 0) {
                            // the login is taken, or a twin first login (another tab) just linked
                            // them: then this login is theirs
                            String twin = linked(c, issuer, subject);
                            if (twin == null) {
                                throw new PersonException(409, "people.error.providerTaken", login);
                            }
                            c.commit();
                            return find(c, twin).orElseThrow();
                        }
                    }
                    writeRoles(c, login, checkedRoles);
                    changed(
                            c,
                            login,
                            PROVIDER,
                            "added",
                            String.join(",", new TreeSet<>(checkedRoles)));
                } else {
                    Person person = existing(c, login);
                    if (person.isDisabled()) {
                        throw new PersonException(
                                403,
                                "people.error.providerDisabled",
                                person.name(),
                                person.disabledBy(),
                                person.disabledReason());
                    }
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "update app_user set display_name = ? where login = ?")) {
                        ps.setString(1, checkedName);
                        ps.setString(2, login);
                        ps.executeUpdate();
                    }
                    if (!person.roles().equals(checkedRoles)) {
                        try (PreparedStatement ps =
                                c.prepareStatement("delete from app_user_role where login = ?")) {
                            ps.setString(1, login);
                            ps.executeUpdate();
                        }
                        writeRoles(c, login, checkedRoles);
                        changed(
                                c,
                                login,
                                PROVIDER,
                                "roles",
                                String.join(",", new TreeSet<>(checkedRoles)));
                    }
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
            return find(c, login).orElseThrow();
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Could not note a login through the provider: " + e.getMessage(), e);
        }
    }

    /** Refuses what needs a password kept here when passwords are switched off. */
    private void passwordsOn() {
        if (settings != null && !settings.passwords()) {
            throw new PersonException(409, "people.error.passwordsOff");
        }
    }

    /** The login of the person {@code issuer} knows as {@code subject}, or null for nobody. */
    public String linkedLogin(String issuer, String subject) {
        try (Connection c = dataSource.getConnection()) {
            return linked(c, issuer, subject);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read a person: " + e.getMessage(), e);
        }
    }

    /** The login of the person {@code issuer} knows as {@code subject}, or null for nobody yet. */
    private static String linked(Connection c, String issuer, String subject) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "select login from app_user where oidc_issuer = ? and oidc_subject = ?")) {
            ps.setString(1, issuer);
            ps.setString(2, subject);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** Everyone, by login (at most {@link #MAX_LISTED}). */
    public List<Person> list() {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(PERSON + " order by u.login limit " + MAX_LISTED)) {
            List<Person> people = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    people.add(person(rs));
                }
            }
            return people;
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the people: " + e.getMessage(), e);
        }
    }

    /** The person who logs in as {@code login}, if there is one. */
    public Optional<Person> find(String login) {
        if (!EditlockIdentityStore.isLogin(login)) {
            return Optional.empty();
        }
        try (Connection c = dataSource.getConnection()) {
            return find(c, login);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read a person: " + e.getMessage(), e);
        }
    }

    /**
     * Adds a person who logs in with a password Editlock makes (returned this once).
     *
     * @throws PersonException 400 for a login, name or role Editlock does not take; 409 when the
     *     login is taken
     */
    public Added add(String login, String name, Collection<String> roles, String by) {
        passwordsOn();
        String checkedLogin = checkedLogin(login);
        String checkedName = checkedName(name);
        Set<String> checkedRoles = checkedRoles(roles);
        String password = newPassword();
        String hash = hashes.generate(password.toCharArray());
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                try (PreparedStatement ps =
                        c.prepareStatement(
                                "insert into app_user (login, display_name, password_hash)"
                                        + " values (?, ?, ?) on conflict (login) do nothing")) {
                    ps.setString(1, checkedLogin);
                    ps.setString(2, checkedName);
                    ps.setString(3, hash);
                    if (ps.executeUpdate() == 0) {
                        throw new PersonException(409, "people.error.taken", checkedLogin);
                    }
                }
                writeRoles(c, checkedLogin, checkedRoles);
                changed(
                        c,
                        checkedLogin,
                        by,
                        "added",
                        String.join(",", new TreeSet<>(checkedRoles)));
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
            LOG.info(() -> by + " added " + checkedLogin + " with roles " + checkedRoles);
            return new Added(find(c, checkedLogin).orElseThrow(), password);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not add a person: " + e.getMessage(), e);
        }
    }

    /**
     * Gives {@code login} exactly {@code roles}. A session of theirs sees the change within {@code
     * locks.role.recheck.seconds}.
     *
     * @throws PersonException 400 for a role Editlock does not know; 404 for nobody; 409 when it
     *     would leave no enabled admin
     */
    public Person setRoles(String login, Collection<String> roles, String by) {
        Set<String> checkedRoles = checkedRoles(roles);
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Person person = existing(c, login);
                if (person.roles().contains(Roles.ADMIN)
                        && !checkedRoles.contains(Roles.ADMIN)
                        && !person.isDisabled()
                        && otherEnabledAdmins(c, login) == 0) {
                    throw new PersonException(409, "people.error.lastAdmin", person.name());
                }
                try (PreparedStatement ps =
                        c.prepareStatement("delete from app_user_role where login = ?")) {
                    ps.setString(1, login);
                    ps.executeUpdate();
                }
                writeRoles(c, login, checkedRoles);
                changed(c, login, by, "roles", String.join(",", new TreeSet<>(checkedRoles)));
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
            LOG.info(() -> by + " gave " + login + " the roles " + checkedRoles);
            return find(c, login).orElseThrow();
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Could not change a person's roles: " + e.getMessage(), e);
        }
    }

    /**
     * Gives {@code login} a new password Editlock makes (returned this once); the old one stops
     * working at once. Sessions already open stay open.
     *
     * @throws PersonException 404 for nobody
     */
    public String resetPassword(String login, String by) {
        passwordsOn();
        String password = newPassword();
        String hash = hashes.generate(password.toCharArray());
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                if (existing(c, login).viaProvider()) {
                    throw new PersonException(409, "people.error.providerPassword", login);
                }
                try (PreparedStatement ps =
                        c.prepareStatement(
                                "update app_user set password_hash = ? where login = ?")) {
                    ps.setString(1, hash);
                    ps.setString(2, login);
                    ps.executeUpdate();
                }
                changed(c, login, by, "password", "");
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not reset a password: " + e.getMessage(), e);
        }
        LOG.info(() -> by + " reset the password of " + login);
        return password;
    }

    /**
     * Disables {@code login}: marked disabled and their API tokens revoked (one transaction), then
     * everything they hold force-released with {@code reason}; their sessions end on every node
     * {@link DisabledPeople#END_AFTER_MILLIS} later.
     *
     * @throws PersonException 400 for a reason that is blank, too long or not plain text; 404 for
     *     nobody; 409 for oneself or the last enabled admin, or someone already disabled
     */
    public Person disable(String login, String reason, String by) {
        String why = checkedReason(reason);
        if (login != null && login.equals(by)) {
            throw new PersonException(409, "people.error.self");
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Person person = existing(c, login);
                if (person.isDisabled()) {
                    throw new PersonException(
                            409, "people.error.disabled", person.name(), person.disabledBy());
                }
                if (person.roles().contains(Roles.ADMIN) && otherEnabledAdmins(c, login) == 0) {
                    throw new PersonException(409, "people.error.lastAdmin", person.name());
                }
                try (PreparedStatement ps =
                        c.prepareStatement(
                                "update app_user set disabled_at = now(), disabled_by = ?,"
                                        + " disabled_reason = ? where login = ?")) {
                    ps.setString(1, by);
                    ps.setString(2, why);
                    ps.setString(3, login);
                    ps.executeUpdate();
                }
                try (PreparedStatement ps =
                        c.prepareStatement(
                                "update api_token set revoked_at = now(), revoked_by = ?"
                                        + " where login = ? and revoked_at is null")) {
                    ps.setString(1, by);
                    ps.setString(2, login);
                    ps.executeUpdate();
                }
                changed(c, login, by, "disabled", why);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
            int freed = administration.forceReleaseAllOf(login, by, why).size();
            LOG.info(() -> by + " disabled " + login + "; " + freed + " locks released");
            return find(c, login).orElseThrow();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not disable a person: " + e.getMessage(), e);
        }
    }

    /**
     * Lets {@code login} log in again (their API tokens stay revoked).
     *
     * @throws PersonException 404 for nobody; 409 for someone who is not disabled
     */
    public Person enable(String login, String by) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Person person = existing(c, login);
                if (!person.isDisabled()) {
                    throw new PersonException(409, "people.error.notDisabled", person.name());
                }
                try (PreparedStatement ps =
                        c.prepareStatement(
                                "update app_user set disabled_at = null, disabled_by = null,"
                                        + " disabled_reason = null where login = ?")) {
                    ps.setString(1, login);
                    ps.executeUpdate();
                }
                changed(c, login, by, "enabled", "");
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
            LOG.info(() -> by + " enabled " + login);
            return find(c, login).orElseThrow();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not enable a person: " + e.getMessage(), e);
        }
    }

    /**
     * The newest {@code limit} changes to {@code login} (everyone when null), newest first; a 404
     * {@link PersonException} when nobody logs in as {@code login}.
     */
    public List<Change> changes(String login, int limit) {
        if (login != null && !EditlockIdentityStore.isLogin(login)) {
            throw new PersonException(404, "people.error.nobody", login);
        }
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select id, login, changed_by, changed_at, change, detail"
                                        + " from person_change where (?::varchar is null or"
                                        + " login = ?) order by id desc limit ?")) {
            if (login != null && find(c, login).isEmpty()) {
                throw new PersonException(404, "people.error.nobody", login);
            }
            ps.setString(1, login);
            ps.setString(2, login);
            ps.setInt(3, Math.max(1, Math.min(limit, 1000)));
            List<Change> changes = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    changes.add(
                            new Change(
                                    rs.getLong(1),
                                    rs.getString(2),
                                    rs.getString(3),
                                    rs.getTimestamp(4).toInstant(),
                                    rs.getString(5),
                                    rs.getString(6)));
                }
            }
            return changes;
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Could not read the changes to people: " + e.getMessage(), e);
        }
    }

    /** The person {@code login}, their row locked until the transaction ends. */
    private Person existing(Connection c, String login) throws SQLException {
        if (!EditlockIdentityStore.isLogin(login)) {
            throw new PersonException(404, "people.error.nobody", String.valueOf(login));
        }
        try (PreparedStatement ps =
                c.prepareStatement("select 1 from app_user where login = ? for update")) {
            ps.setString(1, login);
            ps.executeQuery().close();
        }
        return find(c, login)
                .orElseThrow(() -> new PersonException(404, "people.error.nobody", login));
    }

    private static Optional<Person> find(Connection c, String login) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(PERSON + " where u.login = ?")) {
            ps.setString(1, login);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(person(rs)) : Optional.empty();
            }
        }
    }

    /** Admins other than {@code login} who can log in; locks their rows against a twin change. */
    private static int otherEnabledAdmins(Connection c, String login) throws SQLException {
        try (PreparedStatement lock =
                c.prepareStatement("select pg_advisory_xact_lock(hashtext('editlock-admins'))")) {
            lock.executeQuery().close(); // two admins demoting each other at once: one waits
        }
        try (PreparedStatement ps =
                c.prepareStatement(
                        "select count(*) from app_user u join app_user_role r on r.login = u.login"
                                + " where r.role = 'admin' and u.disabled_at is null"
                                + " and u.login <> ?")) {
            ps.setString(1, login);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static void writeRoles(Connection c, String login, Set<String> roles)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("insert into app_user_role (login, role) values (?, ?)")) {
            for (String role : roles) {
                ps.setString(1, login);
                ps.setString(2, role);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private static void changed(Connection c, String login, String by, String change, String detail)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "insert into person_change (login, changed_by, change, detail)"
                                + " values (?, ?, ?, ?)")) {
            ps.setString(1, login);
            ps.setString(2, by);
            ps.setString(3, change);
            ps.setString(4, detail);
            ps.executeUpdate();
        }
    }

    private static Person person(ResultSet rs) throws SQLException {
        String roles = rs.getString(8);
        return new Person(
                rs.getString(1),
                rs.getString(2),
                roles == null ? Set.of() : Set.copyOf(new TreeSet<>(List.of(roles.split(",")))),
                rs.getLong(7),
                instant(rs.getTimestamp(3)),
                instant(rs.getTimestamp(4)),
                rs.getString(5),
                rs.getString(6),
                rs.getBoolean(9));
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    static String checkedLogin(String login) {
        if (!EditlockIdentityStore.isLogin(login)) {
            throw new PersonException(400, "people.error.login");
        }
        return login;
    }

    static String checkedName(String name) {
        String stripped = name == null ? "" : name.strip();
        if (stripped.isEmpty() || stripped.length() > MAX_NAME || !PlainText.isPlain(stripped)) {
            throw new PersonException(400, "people.error.name", MAX_NAME);
        }
        return stripped;
    }

    static Set<String> checkedRoles(Collection<String> roles) {
        if (roles == null || roles.isEmpty()) {
            throw new PersonException(400, "people.error.noRole");
        }
        Map<String, Boolean> seen = new LinkedHashMap<>();
        for (String role : roles) {
            if (role == null || !ROLES.contains(role)) {
                throw new PersonException(400, "people.error.role", String.valueOf(role));
            }
            seen.put(role, true);
        }
        return Set.copyOf(new TreeSet<>(seen.keySet()));
    }

    static String checkedReason(String reason) {
        String stripped = reason == null ? "" : reason.strip();
        if (stripped.isEmpty() || stripped.length() > MAX_REASON || !PlainText.isPlain(stripped)) {
            throw new PersonException(400, "people.error.reason", MAX_REASON);
        }
        return stripped;
    }

    static String newPassword() {
        StringBuilder password = new StringBuilder(PASSWORD_LENGTH);
        for (int i = 0; i < PASSWORD_LENGTH; i++) {
            password.append(
                    PASSWORD_CHARACTERS.charAt(RANDOM.nextInt(PASSWORD_CHARACTERS.length())));
        }
        return password.toString();
    }
}
