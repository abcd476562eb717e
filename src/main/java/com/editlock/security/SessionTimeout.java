package com.editlock.security;

import com.editlock.platform.DataGrid;
import com.editlock.platform.Settings;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.annotation.WebListener;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionIdListener;
import jakarta.servlet.http.HttpSessionListener;
import java.io.IOException;
import java.io.Serializable;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Every session, logged in or not, ends after {@code locks.session.timeout.seconds} without its
 * user: without a request the user made — a page opened, a form sent, the heartbeat of a page whose
 * user is active (it stops after the idle timeout). What open pages do on their own does not count:
 * their live stream never touches the session, and the look a page takes when news arrives marks
 * itself as {@linkplain #background() background}. Without this, a list left open in a busy office
 * would refresh its user's session forever.
 *
 * <p>The container's own timeout stays as it is (same length: it ends sessions nothing touched at
 * all); this listener ends, every {@value #CHECK_SECONDS} s, the sessions whose user's last request
 * is older than the timeout. Ending a session releases its locks (its {@code LockRemover}) as a
 * logout does.
 *
 * <p>With the data grid ({@code LOCKS_GRID=true}) a session may have copies on several nodes, and
 * the copy on a node its user has left no longer sees their requests. So every user request is also
 * noted in the grid ({@link DataGrid.Activity}); a node whose copy looks idle asks the grid first
 * (and catches up when the user went on elsewhere), claims the end there so that one node alone
 * ends the session, and a node that finds a session ended elsewhere ends its own copy (its locks
 * are gone already, so that end frees nothing twice).
 */
@WebListener
public class SessionTimeout
        implements HttpSessionListener, HttpSessionIdListener, ServletContextListener {

    /** How often the sessions are looked at. */
    static final int CHECK_SECONDS = 5;

    private static final String LAST_ACTIVE = SessionTimeout.class.getName() + ".lastActive";
    private static final String BACKGROUND = SessionTimeout.class.getName() + ".background";
    private static final Logger LOG = Logger.getLogger(SessionTimeout.class.getName());

    /** Every open session of this node, as the object its requests are served with now. */
    private static final OpenSessions SESSIONS = new OpenSessions();

    @Inject Settings settings;

    @Inject DataGrid grid;

    /** The grid's view of each session's activity; null without the grid. */
    private static volatile DataGrid.Activity shared;

    @Resource ManagedScheduledExecutorService scheduler;

    private ScheduledFuture<?> check;

    /**
     * When the session's user last made a request (epoch millis), and how many requests of the
     * session are in flight (a session is never ended under a running request, as the container's
     * own timeout never does); serializable with the session.
     */
    static final class LastActive extends AtomicLong implements Serializable {
        private static final long serialVersionUID = 1L;
        final AtomicInteger inFlight = new AtomicInteger();

        /**
         * A copy read on another node starts with no request in flight there: the count of the node
         * that wrote it is its own.
         */
        private Object readResolve() {
            LastActive here = new LastActive();
            here.set(get());
            return here;
        }
    }

    @Override
    public void contextInitialized(ServletContextEvent event) {
        if (settings.grid()) {
            // Kept past the timeout, so that a node asking about an ended session hears so.
            Duration keep = Duration.ofSeconds(2L * settings.sessionTimeoutSeconds() + 60);
            shared = grid.activity(keep).orElse(null);
            if (shared == null) {
                LOG.warning(
                        "locks.grid is on but the data grid cannot be asked: sessions that"
                                + " moved between nodes are ended by the container's timeout");
            }
        }
        check =
                scheduler.scheduleWithFixedDelay(
                        this::endIdleSessions, CHECK_SECONDS, CHECK_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        if (check != null) {
            check.cancel(false);
        }
        SESSIONS.clear();
        shared = null;
    }

    @Override
    public void sessionCreated(HttpSessionEvent event) {
        HttpSession session = event.getSession();
        session.setMaxInactiveInterval(settings.sessionTimeoutSeconds());
        LastActive now = new LastActive();
        now.set(System.currentTimeMillis());
        session.setAttribute(LAST_ACTIVE, now);
        SESSIONS.serving(session);
    }

    @Override
    public void sessionIdChanged(HttpSessionEvent event, String oldSessionId) {
        SESSIONS.renamed(event.getSession(), oldSessionId);
    }

    @Override
    public void sessionDestroyed(HttpSessionEvent event) {
        SESSIONS.ended(event.getSession());
        DataGrid.Activity grid = shared;
        if (grid != null) {
            try {
                grid.ended(event.getSession().getId());
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "Could not note a session's end in the grid", e);
            }
        }
    }

    /** The session's user made a request at {@code now}: this node watches it from here on. */
    private static void noted(HttpSession session, LastActive last, long now) {
        last.accumulateAndGet(now, Math::max);
        SESSIONS.serving(session); // also a session this node loaded from the grid (again)
        DataGrid.Activity grid = shared;
        if (grid != null) {
            try {
                grid.touched(session.getId(), now);
                // Marks the session changed, so the grid's copy is written back with this
                // request's access time: a node that loads a copy last written longer ago than the
                // timeout ends it at once (seen: a browser's session, alive by its heartbeats on
                // one node, ended by the node it moved to at a restart).
                session.setAttribute(LAST_ACTIVE, last);
            } catch (IllegalStateException e) {
                // the request ended its session (a logout)
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "Could not note a request in the grid", e);
            }
        }
    }

    /**
     * The current Faces request is an open page's own look at news, not its user's: it keeps no
     * session alive.
     */
    public static void background() {
        FacesContext faces = FacesContext.getCurrentInstance();
        if (faces != null) {
            faces.getExternalContext().getRequestMap().put(BACKGROUND, Boolean.TRUE);
        }
    }

    /**
     * Ends this node's sessions that {@code login} logged in with and that run no request now; one
     * that does is ended at its next request by the authentication.
     */
    static void endSessionsOf(String login) {
        endSessionsOf(login, session -> true);
    }

    /** The same, for the sessions of {@code login} that {@code which} picks. */
    static void endSessionsOf(String login, java.util.function.Predicate<HttpSession> which) {
        for (HttpSession session : SESSIONS.current()) {
            try {
                if (login.equals(EditlockAuthentication.loginOf(session))
                        && which.test(session)
                        && !(session.getAttribute(LAST_ACTIVE) instanceof LastActive last
                                && last.inFlight.get() > 0)) {
                    session.invalidate(); // its LockRemover releases what is left
                }
            } catch (IllegalStateException e) {
                SESSIONS.ended(session); // ended meanwhile
            }
        }
    }

    private void endIdleSessions() {
        long idleSince = System.currentTimeMillis() - settings.sessionTimeoutSeconds() * 1000L;
        for (HttpSession session : SESSIONS.current()) {
            try {
                if (session.getAttribute(LAST_ACTIVE) instanceof LastActive last
                        && last.get() < idleSince
                        && last.inFlight.get() == 0
                        && idleEverywhere(session, last, idleSince)) {
                    session.invalidate(); // its LockRemover releases what it held
                }
            } catch (IllegalStateException e) {
                SESSIONS.ended(session); // ended meanwhile
            } catch (RuntimeException e) {
                LOG.log(
                        Level.WARNING,
                        "Could not end an idle session; the container's timeout will",
                        e);
            }
        }
    }

    /**
     * Whether this node may end a session its copy shows idle: always without the grid; with it,
     * when no node saw a request of its user since {@code idleSince} and this node won the claim to
     * end it, or when another node ended it already (this copy goes too).
     */
    private static boolean idleEverywhere(HttpSession session, LastActive last, long idleSince) {
        DataGrid.Activity grid = shared;
        if (grid == null) {
            return true;
        }
        OptionalLong latest = grid.latest(session.getId());
        if (latest.isPresent() && latest.getAsLong() == DataGrid.Activity.ENDED) {
            return true;
        }
        if (latest.isPresent() && latest.getAsLong() >= idleSince) {
            last.accumulateAndGet(latest.getAsLong(), Math::max); // its user went on elsewhere
            return false;
        }
        return grid.claimEnd(session.getId(), latest);
    }

    /**
     * Notes the user's requests: as each request that is neither the live stream nor an open page's
     * background look starts and ends, the session's user counts as active.
     */
    @WebFilter(urlPatterns = "/*", asyncSupported = true)
    public static class UserRequests extends HttpFilter {

        private static final long serialVersionUID = 1L;

        @Override
        protected void doFilter(
                HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            if (isLiveStream(request)) {
                chain.doFilter(request, response);
                return;
            }
            // A page or form is its user's activity from its start. An Ajax request may be a page's
            // background look:
            // it counts when it ends, unless it said it was one.
            HttpSession served = session(request);
            if (served != null) {
                SESSIONS.serving(served); // (a background look may bring a newer copy in)
            }
            LastActive before = activity(served);
            if (before != null) {
                before.inFlight.incrementAndGet();
                if (!"partial/ajax".equals(request.getHeader("Faces-Request"))) {
                    before.accumulateAndGet(System.currentTimeMillis(), Math::max);
                } // (the grid hears of it as it ends: one note per request)
            }
            try {
                chain.doFilter(request, response);
            } finally {
                if (before != null) {
                    before.inFlight.decrementAndGet();
                }
                HttpSession now =
                        request.getAttribute(BACKGROUND) == null ? session(request) : null;
                LastActive after = activity(now);
                if (after != null) { // (a login's new session too)
                    noted(now, after, System.currentTimeMillis());
                }
            }
        }

        private static boolean isLiveStream(HttpServletRequest request) {
            return request.getRequestURI().equals(request.getContextPath() + "/live");
        }

        private static HttpSession session(HttpServletRequest request) {
            try {
                return request.getSession(false);
            } catch (IllegalStateException e) {
                return null;
            }
        }

        private static LastActive activity(HttpSession session) {
            try {
                return session != null
                                && session.getAttribute(LAST_ACTIVE) instanceof LastActive last
                        ? last
                        : null;
            } catch (IllegalStateException e) {
                return null; // the request ended its session (a logout)
            }
        }
    }
}
