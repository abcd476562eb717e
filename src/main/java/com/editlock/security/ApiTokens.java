package com.editlock.security;

import com.editlock.lock.LockManager;
import com.editlock.lock.LockOwner;
import com.editlock.platform.Database;
import com.editlock.platform.PlainText;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Personal API tokens, so that a script calls the API without sending a password every time.
 *
 * <ul>
 *   <li>A token is {@code elk_} and 43 characters of a random 256-bit secret. It is shown once,
 *       when it is made; the database keeps its SHA-256 only, and its first characters as a hint. A
 *       secret that size needs no slow hash: checking one costs one SHA-256 and one indexed read,
 *       against a PBKDF2 verification for a password.
 *   <li>A user makes tokens for themselves, an admin for anyone; making one needs a login with the
 *       password (a token cannot make tokens). Each has a name, expires after at most {@value
 *       #MAX_DAYS} days (90 by default), and a user holds at most {@value #MAX_ACTIVE} live ones.
 *   <li>The user or an admin revokes a token; it is refused from the next request on (nothing is
 *       cached), and the locks it held are released.
 *   <li>Every token is its own lock owner: a script's locks belong to its token, not to a session.
 *       The token carries the user's roles as they are now.
 *   <li>Who made and who revoked each token, and when it was last used (to the minute), stay in the
 *       table: the audit.
 * </ul>
 */
@ApplicationScoped
public class ApiTokens {

    private static final Logger LOG = Logger.getLogger(ApiTokens.class.getName());

    static final String PREFIX = "elk_";
    static final int MAX_DAYS = 365;
    static final int DEFAULT_DAYS = 90;
    static final int MAX_ACTIVE = 20;
    static final int NAME_MAX = 100;
    private static final int SECRET_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A token as its user and the admins see it: never the secret. */
    public record Token(
            long id,
            String login,
            String name,
            String hint,
            Instant createdAt,
            String createdBy,
            Instant expiresAt,
            Instant lastUsedAt,
            Instant revokedAt,
            String revokedBy) {

        public boolean active(Instant now) {
            return revokedAt == null && expiresAt.isAfter(now);
        }
    }

    /** A token just made: its description and the secret, shown this once. */
    public record Created(Token token, String secret) {}

    /** Who a valid token speaks for: the lock owner and the user's roles now. */
    public record Caller(long tokenId, LockOwner owner, Set<String> groups) {}

    /** A request about tokens that cannot be done; the message says why, nothing was changed. */
    public static final class TokenException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int status;

        TokenException(int status, String message) {
            super(message);
            this.status = status;
        }

        /** 400, 403, 404 or 409. */
        public int status() {
            return status;
        }
    }

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    @Inject LockManager locks;

    /**
     * Makes a token for {@code login}, asked by {@code actor} (the user, or an admin); {@code days}
     * null means the default.
     */
    public Created create(String login, String name, Integer days, String actor, boolean admin) {
        if (!login.equals(actor) && !admin) {
            throw new TokenException(403, "Only an admin may make a token for someone else.");
        }
        String label = name == null ? "" : name.strip();
        if (label.isEmpty() || label.length() > NAME_MAX || !PlainText.isPlain(label)) {
            throw new TokenException(
                    400,
                    "Give the token a name of 1 to "
                            + NAME_MAX
                            + " characters without control characters, e.g. \"nightly import\".");
        }
        int lifetime = days == null ? DEFAULT_DAYS : days;
        if (lifetime < 1 || lifetime > MAX_DAYS) {
            throw new TokenException(
                    400, "A token lives from 1 to " + MAX_DAYS + " days (90 when not said).");
        }
        byte[] random = new byte[SECRET_BYTES];
        RANDOM.nextBytes(random);
        String secret = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        String hint = secret.substring(0, PREFIX.length() + 6);
        Instant expires = Instant.now().plus(Duration.ofDays(lifetime));
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                // One user's tokens are counted and added one at a time (the user row is the
                // referee), so two requests at once cannot pass the limit together.
                try (PreparedStatement ps =
                        c.prepareStatement("select 1 from app_user where login = ? for update")) {
                    ps.setString(1, login);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            throw new TokenException(404, "There is no user " + login + ".");
                        }
                    }
                }
                try (PreparedStatement ps =
                        c.prepareStatement(
                                "select count(*) from api_token where login = ? "
                                        + "and revoked_at is null and expires_at > now()")) {
                    ps.setString(1, login);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        if (rs.getInt(1) >= MAX_ACTIVE) {
                            throw new TokenException(
                                    409,
                                    login
                                            + " already has "
                                            + MAX_ACTIVE
                                            + " live tokens: revoke one before making another.");
                        }
                    }
                }
                Token token;
                try (PreparedStatement ps =
                        c.prepareStatement(
                                "insert into api_token (login, name, token_hash, hint, owner_id, "
                                        + "created_by, expires_at) values (?, ?, ?, ?, ?, ?, ?) "
                                        + "returning id, created_at")) {
                    ps.setString(1, login);
                    ps.setString(2, label);
                    ps.setString(3, hash(secret));
                    ps.setString(4, hint);
                    ps.setString(5, UUID.randomUUID().toString());
                    ps.setString(6, actor);
                    ps.setTimestamp(7, Timestamp.from(expires));
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        token =
                                new Token(
                                        rs.getLong(1),
                                        login,
                                        label,
                                        hint,
                                        rs.getTimestamp(2).toInstant(),
                                        actor,
                                        expires,
                                        null,
                                        null,
                                        null);
                    }
                }
                c.commit();
                LOG.info(() -> actor + " made API token " + token.id() + " for " + login);
                return new Created(token, secret);
            } catch (RuntimeException | SQLException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not make an API token: " + e.getMessage(), e);
        }
    }

    /** The tokens of {@code login} (all users' when null), newest first. */
    public List<Token> list(String login) {
        String sql =
                "select id, login, name, hint, created_at, created_by, expires_at, last_used_at, "
                        + "revoked_at, revoked_by from api_token"
                        + (login == null ? "" : " where login = ?")
                        + " order by id desc limit 1000";
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            if (login != null) {
                ps.setString(1, login);
            }
            List<Token> all = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    all.add(token(rs));
                }
            }
            return all;
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read API tokens: " + e.getMessage(), e);
        }
    }

    /**
     * Revokes token {@code id}, asked by {@code actor}: its user, or an admin. Revoking a revoked
     * token changes nothing. The locks the token held are released.
     */
    public Token revoke(long id, String actor, boolean admin) {
        String ownerId;
        Token token;
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "update api_token set revoked_at = coalesce(revoked_at, now()), "
                                        + "revoked_by = coalesce(revoked_by, ?) "
                                        + "where id = ? and (login = ? or ?) "
                                        + "returning id, login, name, hint, created_at, created_by, "
                                        + "expires_at, last_used_at, revoked_at, revoked_by, owner_id")) {
            ps.setString(1, actor);
            ps.setLong(2, id);
            ps.setString(3, actor);
            ps.setBoolean(4, admin);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new TokenException(
                            404,
                            "You have no API token " + id + " (an admin may revoke anyone's).");
                }
                token = token(rs);
                ownerId = rs.getString(11);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not revoke an API token: " + e.getMessage(), e);
        }
        LOG.info(() -> actor + " revoked API token " + id + " of " + token.login());
        locks.releaseAll(ownerId);
        return token;
    }

    /**
     * Who {@code presented} speaks for, when it is a live token of an existing user; empty
     * otherwise. Costs one SHA-256 and one read; the last use is written at most once a minute.
     */
    public Optional<Caller> check(String presented) {
        if (presented == null
                || presented.length() != PREFIX.length() + 43
                || !presented.startsWith(PREFIX)) {
            return Optional.empty();
        }
        try (Connection c = dataSource.getConnection()) {
            long id;
            LockOwner owner;
            Set<String> groups = new HashSet<>();
            boolean stale;
            try (PreparedStatement ps =
                    c.prepareStatement(
                            "select t.id, t.owner_id, t.login, u.display_name, r.role, "
                                    + "coalesce(t.last_used_at < now() - interval '1 minute', true) "
                                    + "from api_token t join app_user u on u.login = t.login "
                                    + "left join app_user_role r on r.login = t.login "
                                    + "where t.token_hash = ? and t.revoked_at is null "
                                    + "and t.expires_at > now() and u.disabled_at is null")) {
                ps.setString(1, hash(presented));
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    id = rs.getLong(1);
                    owner = new LockOwner(rs.getString(2), rs.getString(3), rs.getString(4));
                    stale = rs.getBoolean(6);
                    do {
                        if (rs.getString(5) != null) {
                            groups.add(rs.getString(5));
                        }
                    } while (rs.next());
                }
            }
            if (stale) {
                try (PreparedStatement ps =
                        c.prepareStatement(
                                "update api_token set last_used_at = now() where id = ?")) {
                    ps.setLong(1, id);
                    ps.executeUpdate();
                }
                try (PreparedStatement ps =
                        c.prepareStatement(
                                "update app_user set last_seen_at = now() where login = ?")) {
                    ps.setString(1, owner.login());
                    ps.executeUpdate(); // when the person last acted, as the people screen shows
                }
            }
            return Optional.of(new Caller(id, owner, Set.copyOf(groups)));
        } catch (SQLException e) {
            throw new IllegalStateException("Could not check an API token: " + e.getMessage(), e);
        }
    }

    static String hash(String secret) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256")
                                    .digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java has SHA-256", e);
        }
    }

    private static Token token(ResultSet rs) throws SQLException {
        return new Token(
                rs.getLong(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getTimestamp(5).toInstant(),
                rs.getString(6),
                rs.getTimestamp(7).toInstant(),
                instant(rs.getTimestamp(8)),
                instant(rs.getTimestamp(9)),
                rs.getString(10));
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
