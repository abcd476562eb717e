package com.editlock.security;

import com.editlock.platform.Database;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Ends the sessions of people an admin disabled, on every node: each node reads every {@link
 * #LOOK_MILLIS} who was disabled between {@link #END_AFTER_MILLIS} and {@link #RECENT_MINUTES}
 * minutes ago (one indexed read of {@code app_user}) and ends its own sessions of theirs; a session
 * that is running a request is ended at its next one ({@link EditlockAuthentication} asks {@link
 * #isDisabled}). The sessions end {@link #END_AFTER_MILLIS} after what the person held was
 * released, not at once: their open pages first hear of the release and show who released their
 * work and why (their drafts are kept), which a page whose session has ended could not; a lock they
 * took meanwhile ends with the session. Their API tokens are revoked at once. Someone disabled
 * longer ago has no session left anywhere: they cannot log in, and a session's roles read again
 * ({@code locks.role.recheck.seconds}) find them disabled too.
 */
@ApplicationScoped
public class DisabledPeople {

    /** How often each node looks for people disabled just now. */
    public static final long LOOK_MILLIS = 500;

    /**
     * How long after the release a disabled person's sessions end: their pages hear of the release
     * within a second and look again (docs/live-channel.md).
     */
    public static final long END_AFTER_MILLIS = 3000;

    /** How far back each look reaches. */
    static final int RECENT_MINUTES = 2;

    private static final Logger LOG = Logger.getLogger(DisabledPeople.class.getName());

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    @Resource ManagedScheduledExecutorService scheduler;

    private volatile Set<String> recent = Set.of();

    private ScheduledFuture<?> looking;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
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

    /**
     * Whether {@code login} was disabled within the last few minutes (at least {@link
     * #END_AFTER_MILLIS} ago), as this node last read.
     */
    public boolean isDisabled(String login) {
        return recent.contains(login);
    }

    private void look() {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select login from app_user where disabled_at > now() - interval '"
                                        + RECENT_MINUTES
                                        + " minutes' and disabled_at <= now() - interval '"
                                        + END_AFTER_MILLIS
                                        + " milliseconds'")) {
            Set<String> found = new HashSet<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getString(1));
                }
            }
            recent = Set.copyOf(found);
            found.forEach(SessionTimeout::endSessionsOf);
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "Could not look for people disabled just now", e);
        }
    }
}
