package com.editlock.lock.internal;

import com.editlock.lock.LockManager;
import com.editlock.lock.LockRemover;
import jakarta.inject.Inject;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;

/**
 * Puts the lock manager where a {@link LockRemover} finds it without CDI lookups on the session
 * reaper's thread. When the application stops (Ctrl-C, an undeploy or a redeploy: the sessions have
 * ended and released their locks by then), it stops the lock feed and the sweep before the data
 * source goes away, so neither fails on the way out.
 */
@WebListener
public class LockManagerPublisher implements ServletContextListener {

    static final String ATTRIBUTE = LockRemover.MANAGER_ATTRIBUTE;

    @Inject LockManager locks;

    @Inject LockEventFeed feed;

    @Inject LockSweep sweep;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        event.getServletContext().setAttribute(ATTRIBUTE, locks);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        event.getServletContext().removeAttribute(ATTRIBUTE);
        feed.stop();
        sweep.stop();
    }
}
