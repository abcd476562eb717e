package com.editlock.security;

import com.editlock.platform.Settings;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebListener;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionListener;

/** Every session, logged in or not, times out after {@code locks.session.timeout.seconds} of inactivity. */
@WebListener
public class SessionTimeout implements HttpSessionListener {

    @Inject
    Settings settings;

    @Override
    public void sessionCreated(HttpSessionEvent event) {
        event.getSession().setMaxInactiveInterval(settings.sessionTimeoutSeconds());
    }
}
