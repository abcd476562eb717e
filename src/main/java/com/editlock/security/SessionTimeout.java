package com.editlock.security;

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
import jakarta.servlet.http.HttpSessionListener;
import java.io.IOException;
import java.io.Serializable;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 */
@WebListener
public class SessionTimeout implements HttpSessionListener, ServletContextListener {

    /** How often the sessions are looked at. */
    static final int CHECK_SECONDS = 5;

    private static final String LAST_ACTIVE = SessionTimeout.class.getName() + ".lastActive";
    private static final String BACKGROUND = SessionTimeout.class.getName() + ".background";
    private static final Logger LOG = Logger.getLogger(SessionTimeout.class.getName());

    /** Every open session of this node (the same object across a change of its id at login). */
    private static final Set<HttpSession> SESSIONS = ConcurrentHashMap.newKeySet();

    @Inject Settings settings;

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
    }

    @Override
    public void contextInitialized(ServletContextEvent event) {
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
    }

    @Override
    public void sessionCreated(HttpSessionEvent event) {
        HttpSession session = event.getSession();
        session.setMaxInactiveInterval(settings.sessionTimeoutSeconds());
        LastActive now = new LastActive();
        now.set(System.currentTimeMillis());
        session.setAttribute(LAST_ACTIVE, now);
        SESSIONS.add(session);
    }

    @Override
    public void sessionDestroyed(HttpSessionEvent event) {
        SESSIONS.remove(event.getSession());
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

    private void endIdleSessions() {
        long idleSince = System.currentTimeMillis() - settings.sessionTimeoutSeconds() * 1000L;
        for (HttpSession session : SESSIONS) {
            try {
                if (session.getAttribute(LAST_ACTIVE) instanceof LastActive last
                        && last.get() < idleSince
                        && last.inFlight.get() == 0) {
                    session.invalidate(); // its LockRemover releases what it held
                }
            } catch (IllegalStateException e) {
                SESSIONS.remove(session); // ended meanwhile
            } catch (RuntimeException e) {
                LOG.log(
                        Level.WARNING,
                        "Could not end an idle session; the container's timeout will",
                        e);
            }
        }
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
            LastActive before = activity(request);
            if (before != null) {
                before.inFlight.incrementAndGet();
                if (!"partial/ajax".equals(request.getHeader("Faces-Request"))) {
                    before.set(System.currentTimeMillis());
                }
            }
            try {
                chain.doFilter(request, response);
            } finally {
                if (before != null) {
                    before.inFlight.decrementAndGet();
                }
                LastActive after =
                        request.getAttribute(BACKGROUND) == null ? activity(request) : null;
                if (after != null) { // (a login's new session too)
                    after.set(System.currentTimeMillis());
                }
            }
        }

        private static boolean isLiveStream(HttpServletRequest request) {
            return request.getRequestURI().equals(request.getContextPath() + "/live");
        }

        private static LastActive activity(HttpServletRequest request) {
            try {
                HttpSession session = request.getSession(false);
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
