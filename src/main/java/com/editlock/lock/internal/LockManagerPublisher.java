package com.editlock.lock.internal;

import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
import com.editlock.lock.LockRemover;
import com.editlock.platform.DataGrid;
import com.editlock.platform.Settings;
import jakarta.inject.Inject;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import java.util.List;
import java.util.logging.Logger;

/**
 * Puts the lock manager where a {@link LockRemover} finds it without CDI lookups on the session
 * reaper's thread. When the application stops (Ctrl-C, an undeploy or a redeploy: the sessions have
 * ended and released their locks by then), it stops the lock feed and the sweep before the data
 * source goes away, so neither fails on the way out.
 *
 * <p>With the sessions in the data grid ({@link Settings#grid()}) a stopping node's sessions do not
 * end: the container hands them to the grid, where another member serves them on, and nothing is
 * released. Only the grid's last member releases, on its way out, every lock a session holds
 * ({@code SESSION_ENDED}), since no session outlives it; API tokens keep theirs, as they do when a
 * node without the grid stops.
 */
@WebListener
public class LockManagerPublisher implements ServletContextListener {

    static final String ATTRIBUTE = LockRemover.MANAGER_ATTRIBUTE;

    @Inject LockManager locks;

    @Inject LockEventFeed feed;

    @Inject LockSweep sweep;

    @Inject JdbcLockManager jdbc;

    @Inject Settings settings;

    @Inject DataGrid grid;

    private static final Logger LOG = Logger.getLogger(LockManagerPublisher.class.getName());

    @Override
    public void contextInitialized(ServletContextEvent event) {
        event.getServletContext().setAttribute(ATTRIBUTE, locks);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        event.getServletContext().removeAttribute(ATTRIBUTE);
        if (settings.grid()) {
            if (grid.lastMember()) {
                List<LockKey> released = jdbc.releaseEverySession();
                LOG.info(
                        () ->
                                "The grid's last member stops: released the sessions' "
                                        + released.size()
                                        + " locks.");
            } else {
                LOG.info(
                        "Stopping: the sessions stay in the grid (other members, or a grid that"
                                + " can no longer be asked; their locks then lapse with their"
                                + " leases).");
            }
        }
        feed.stop();
        sweep.stop();
    }
}
