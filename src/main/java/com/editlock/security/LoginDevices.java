package com.editlock.security;

import com.editlock.platform.Database;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
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
import java.util.Base64;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Device cookies (OWASP, "Slow down online guessing attacks with device cookies"): a successful
 * login sets {@value #COOKIE}, a random value this node keeps as its SHA-256 with the user's name
 * ({@code login_device}). A later login with that name that presents it comes from a browser the
 * person has used, and is not held back by failures of others: not by its address's, nor by those
 * for the same name from that address (a colleague behind the same office address guessing at it).
 * Its success clears nobody's count, so a guesser gains nothing from it. A device's own failures
 * are counted; past {@value #FAILURES_ALLOWED} it is trusted no more (the cookie is then worth no
 * more than none), and a stolen cookie is worth that many guesses, with the address's and the
 * name's counts still growing.
 *
 * <p>The cookie is {@code HttpOnly}, {@code SameSite=Lax}, {@code Secure} over https, scoped to the
 * application and kept {@link #KEPT}; a user keeps at most {@value #KEPT_PER_LOGIN} devices, the
 * newest. When the database cannot answer, a login is treated as from an unknown device.
 */
@ApplicationScoped
public class LoginDevices {

    /** The cookie's name. */
    public static final String COOKIE = "EDITLOCK_DEVICE";

    /** How long a device stays trusted after the login that made it so. */
    static final Duration KEPT = Duration.ofDays(90);

    /** A device's own failed logins before it is trusted no more. */
    static final int FAILURES_ALLOWED = 5;

    /** Devices kept per user, the newest. */
    static final int KEPT_PER_LOGIN = 20;

    private static final Logger LOG = Logger.getLogger(LoginDevices.class.getName());
    private static final Pattern VALUE = Pattern.compile("[A-Za-z0-9_-]{43}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private static final String TRUSTED =
            "select 1 from login_device where token_hash = ? and login = ? and failures < ?"
                    + " and issued_at > ?";
    private static final String FAILED =
            "update login_device set failures = failures + 1 where token_hash = ? and login = ?";
    private static final String FORGET_FAILURES =
            "update login_device set failures = 0 where token_hash = ? and login = ?";
    private static final String ISSUE =
            "insert into login_device (token_hash, login, issued_at) values (?, ?, ?)";
    private static final String PRUNE =
            "delete from login_device where login = ? and (issued_at <= ? or token_hash not in"
                    + " (select token_hash from login_device where login = ?"
                    + " order by issued_at desc limit "
                    + KEPT_PER_LOGIN
                    + "))";

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    /**
     * Whether the request presents a device cookie that {@code login} logged in with, within {@link
     * #KEPT}, and that has failed fewer than {@value #FAILURES_ALLOWED} times since.
     */
    public boolean trusted(HttpServletRequest request, String login) {
        Optional<byte[]> hash = presented(request);
        if (hash.isEmpty() || login.isEmpty()) {
            return false;
        }
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(TRUSTED)) {
            ps.setBytes(1, hash.get());
            ps.setString(2, login);
            ps.setInt(3, FAILURES_ALLOWED);
            ps.setTimestamp(4, Timestamp.from(Instant.now().minus(KEPT)));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(
                    Level.FINE,
                    "Could not read the login devices; the device counts as unknown",
                    e);
            return false;
        }
    }

    /** A login with {@code login} failed from a device it trusted: counted against the device. */
    public void failed(HttpServletRequest request, String login) {
        presented(request).ifPresent(hash -> update(FAILED, hash, login));
    }

    /**
     * {@code login} logged in: a trusted device's failures are forgotten; any other gets a new
     * device cookie (its older devices beyond the newest {@value #KEPT_PER_LOGIN}, and those past
     * {@link #KEPT}, are forgotten).
     */
    public void succeeded(
            HttpServletRequest request,
            HttpServletResponse response,
            String login,
            boolean wasTrusted) {
        if (wasTrusted) {
            presented(request).ifPresent(hash -> update(FORGET_FAILURES, hash, login));
            return;
        }
        byte[] value = new byte[32];
        RANDOM.nextBytes(value);
        String text = Base64.getUrlEncoder().withoutPadding().encodeToString(value);
        Instant now = Instant.now();
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement(ISSUE)) {
                ps.setBytes(1, sha256(text));
                ps.setString(2, login);
                ps.setTimestamp(3, Timestamp.from(now));
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement(PRUNE)) {
                ps.setString(1, login);
                ps.setTimestamp(2, Timestamp.from(now.minus(KEPT)));
                ps.setString(3, login);
                ps.executeUpdate();
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.WARNING, "Could not keep a login device; the login goes on without", e);
            return;
        }
        Cookie cookie = new Cookie(COOKIE, text);
        cookie.setHttpOnly(true);
        cookie.setSecure(request.isSecure());
        cookie.setPath(request.getContextPath().isEmpty() ? "/" : request.getContextPath());
        cookie.setMaxAge((int) KEPT.toSeconds());
        cookie.setAttribute("SameSite", "Lax");
        response.addCookie(cookie);
    }

    private void update(String sql, byte[] hash, String login) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setBytes(1, hash);
            ps.setString(2, login);
            ps.executeUpdate();
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "Could not update a login device", e);
        }
    }

    /** The SHA-256 of the request's device cookie, when it has one of the right form. */
    private static Optional<byte[]> presented(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) {
            return Optional.empty();
        }
        for (Cookie cookie : cookies) {
            if (COOKIE.equals(cookie.getName())
                    && cookie.getValue() != null
                    && VALUE.matcher(cookie.getValue()).matches()) {
                return Optional.of(sha256(cookie.getValue()));
            }
        }
        return Optional.empty();
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
