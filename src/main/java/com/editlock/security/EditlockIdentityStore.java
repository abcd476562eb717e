package com.editlock.security;

import com.editlock.platform.Database;
import com.editlock.platform.PlainText;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Users, password hashes and roles in {@code app_user} / {@code app_user_role}. Every attempt costs
 * one PBKDF2 verification, whether the user exists or not; a correct password stored with outdated
 * parameters is hashed again with the current ones.
 */
@ApplicationScoped
public class EditlockIdentityStore implements IdentityStore {

    private static final Logger LOG = Logger.getLogger(EditlockIdentityStore.class.getName());
    private static final int PASSWORD_MAX = 1024;

    /** A person's stored password hash, and whether an admin disabled them. */
    private record Stored(String hash, boolean disabled) {}

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    @Inject PasswordHashes hashes;

    public CredentialValidationResult validate(UsernamePasswordCredential credential) {
        String login = credential.getCaller();
        char[] password = credential.getPassword().getValue();
        if (!isLogin(login) || password.length > PASSWORD_MAX) {
            hashes.verifyDecoy(password.length > PASSWORD_MAX ? new char[0] : password);
            return CredentialValidationResult.INVALID_RESULT;
        }
        Optional<Stored> stored = stored(login);
        if (stored.isEmpty()) {
            hashes.verifyDecoy(password);
            return CredentialValidationResult.INVALID_RESULT;
        }
        String hash = stored.get().hash();
        if (hash == null) { // logs in through the provider only
            hashes.verifyDecoy(password);
            return CredentialValidationResult.INVALID_RESULT;
        }
        if (!hashes.verify(password, hash) || stored.get().disabled()) {
            return CredentialValidationResult.INVALID_RESULT; // a disabled person: as a wrong one
        }
        if (hashes.isOutdated(hash)) {
            upgrade(login, hash, hashes.generate(password));
        }
        seen(login);
        return new CredentialValidationResult(login, groupsOf(login).orElse(Set.of()));
    }

    /**
     * Notes that {@code login} made a request now, to the minute (a login, a session's roles read
     * again): what the people screen shows as when they last acted.
     */
    public void seen(String login) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "update app_user set last_seen_at = now() where login = ? and"
                                        + " (last_seen_at is null"
                                        + " or last_seen_at < now() - interval '1 minute')")) {
            ps.setString(1, login);
            ps.executeUpdate();
        } catch (SQLException e) { // only the people screen's figure is late
            LOG.log(Level.FINE, "Could not note when " + login + " last acted", e);
        }
    }

    /**
     * The user's roles, or empty when the user no longer exists or was disabled (more than {@link
     * DisabledPeople#END_AFTER_MILLIS} ago: until then their open pages may still look, to show why
     * their work was released).
     */
    public Optional<Set<String>> groupsOf(String login) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select u.login, r.role from app_user u "
                                        + "left join app_user_role r on r.login = u.login"
                                        + " where u.login = ? and (u.disabled_at is null"
                                        + " or u.disabled_at > now() - interval '"
                                        + DisabledPeople.END_AFTER_MILLIS
                                        + " milliseconds')")) {
            ps.setString(1, login);
            try (ResultSet rs = ps.executeQuery()) {
                Set<String> roles = new HashSet<>();
                boolean exists = false;
                while (rs.next()) {
                    exists = true;
                    if (rs.getString(2) != null) {
                        roles.add(rs.getString(2));
                    }
                }
                return exists ? Optional.of(Set.copyOf(roles)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Could not read the roles of a user: " + e.getMessage(), e);
        }
    }

    static boolean isLogin(String login) {
        return login != null && PlainText.isPlain(login) && login.matches("[a-z][a-z0-9._-]{0,63}");
    }

    private Optional<Stored> stored(String login) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select password_hash, disabled_at is not null from app_user"
                                        + " where login = ?")) {
            ps.setString(1, login);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Stored(rs.getString(1), rs.getBoolean(2)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Could not read the user directory: " + e.getMessage(), e);
        }
    }

    private void upgrade(String login, String old, String upgraded) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "update app_user set password_hash = ? where login = ? and password_hash = ?")) {
            ps.setString(1, upgraded);
            ps.setString(2, login);
            ps.setString(3, old);
            if (ps.executeUpdate() == 1) {
                LOG.info(
                        () ->
                                "The password hash of "
                                        + login
                                        + " was upgraded to the current parameters.");
            }
        } catch (
                SQLException
                        e) { // the login itself succeeded; the upgrade is tried again next time
            LOG.log(Level.WARNING, "Could not upgrade the password hash of " + login, e);
        }
    }
}
