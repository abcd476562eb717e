package com.editlock.lock;

import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionBindingListener;
import java.io.Serializable;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Bound in the HTTP session at login; when the session ends (logout: at once, on the request
 * thread; timeout: on the container's session reaper) it releases everything the owner holds. It
 * keeps only the owner id, so it serializes with the session, and {@link LockManager#releaseAll} is
 * idempotent, so a second unbind (some containers fire it twice) does nothing. The lock manager is
 * found through the servlet context, which works on the reaper thread too.
 */
public final class LockRemover implements HttpSessionBindingListener, Serializable {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(LockRemover.class.getName());

    /**
     * The servlet-context attribute under which the implementation publishes the {@link
     * LockManager}.
     */
    public static final String MANAGER_ATTRIBUTE = LockManager.class.getName();

    private final String ownerId;

    public LockRemover(String ownerId) {
        this.ownerId = ownerId;
    }

    @Override
    public void valueUnbound(HttpSessionBindingEvent event) {
        Object manager = event.getSession().getServletContext().getAttribute(MANAGER_ATTRIBUTE);
        if (!(manager instanceof LockManager locks)) {
            LOG.warning(
                    "Session ended but no lock manager is published; the leases will expire instead.");
            return;
        }
        try {
            List<LockKey> released = locks.releaseAll(ownerId);
            if (!released.isEmpty()) {
                LOG.fine(() -> "Session ended: released " + released);
            }
        } catch (RuntimeException e) {
            // The lease and the sweep still release these locks; the session must end regardless.
            LOG.log(
                    Level.WARNING,
                    "Session ended but its locks could not be released now; the sweep will.",
                    e);
        }
    }
}
