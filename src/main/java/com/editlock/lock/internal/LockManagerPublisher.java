package com.editlock.lock.internal;

import com.editlock.lock.LockManager;
import jakarta.inject.Inject;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;

/** Puts the lock manager where a {@link LockRemover} finds it without CDI lookups on the session reaper's thread. */
@WebListener
public class LockManagerPublisher implements ServletContextListener {

    static final String ATTRIBUTE = LockManager.class.getName();

    @Inject
    LockManager locks;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        event.getServletContext().setAttribute(ATTRIBUTE, locks);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        event.getServletContext().removeAttribute(ATTRIBUTE);
    }
}
