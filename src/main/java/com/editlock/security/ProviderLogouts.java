package com.editlock.security;

import com.editlock.platform.Database;
import com.editlock.platform.Settings;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpSession;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The provider's back-channel logouts, on every node: {@link #note} keeps one as a row of {@code
 * provider_logout}; each node reads the rows of the last {@link #RECENT_MINUTES} minutes every
 * {@link #LOOK_MILLIS} and ends its sessions that were logged in through the provider session the
 * row names (all of the person's provider logins when it names none) before the row was written. A
 * session that is running a request is ended at its next one ({@link EditlockAuthentication} asks
 * {@link #loggedOut}). Ending a session releases what it held, as a logout does.
 */
@ApplicationScoped
public class ProviderLogouts {

    /** How often each node looks for new logouts. */
    public static final long LOOK_MILLIS = 500;

    /** How far back each look reaches. */
    static final int RECENT_MINUTES = 2;

    private static final Logger LOG = Logger.getLogger(ProviderLogouts.class.getName());

    /** A logout: whose, of which provider session (null: all), and when (epoch millis). */
    record Logout(long id, String login, String sid, long at) {}

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    @Resource ManagedScheduledExecutorService scheduler;

    private volatile List<Logout> recent = List.of();

    private ScheduledFuture<?> looking;

    @Inject Settings settings;

    /** The newest row whose sessions this node ended already. */
    private long ended = -1;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        if (settings.provider().isEmpty()) {
            return; // no provider, no logouts from it: nothing to read twice a second
        }
        looking =
                scheduler.scheduleWithFixedDelay(
                        this::look, LOOK_MILLIS, LOOK_MILLIS, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (looking != null) {
            looking.cancel(false);
        }
    }

    /** Notes that the provider logged {@code login} out of {@code sid} (null: of every session). */
    public void note(String login, String sid) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "insert into provider_logout (login, sid) values (?, ?)")) {
            ps.setString(1, login);
            ps.setString(2, sid);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Could not note a logout at the provider: " + e.getMessage(), e);
        }
        LOG.info(
                () ->
                        "The provider logged "
                                + login
                                + " out"
                                + (sid == null ? "" : " (" + sid + ")"));
    }

    /** Whether a logout this node read ends {@code session} of {@code login}. */
    public boolean loggedOut(String login, HttpSession session) {
        if (!(session.getAttribute(ProviderLogin.PROVIDER_SESSION)
                instanceof ProviderLogin.ProviderSession through)) {
            return false; // logged in with a password: the provider's logouts do not reach it
        }
        for (Logout logout : recent) {
            if (logout.login().equals(login)
                    && logout.at() >= through.since()
                    && (logout.sid() == null || logout.sid().equals(through.sid()))) {
                return true;
            }
        }
        return false;
    }

    private void look() {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select id, login, sid, logged_at from provider_logout"
                                        + " where logged_at > now() - interval '"
                                        + RECENT_MINUTES
                                        + " minutes' order by id")) {
            List<Logout> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(
                            new Logout(
                                    rs.getLong(1),
                                    rs.getString(2),
                                    rs.getString(3),
                                    rs.getTimestamp(4).getTime()));
                }
            }
            recent = List.copyOf(found);
            for (Logout logout : found) {
                if (logout.id() > ended) { // a session busy then ends at its next request
                    SessionTimeout.endSessionsOf(
                            logout.login(), session -> loggedOut(logout.login(), session));
                    ended = logout.id();
                }
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "Could not look for logouts at the provider", e);
        }
    }
}
