package com.editlock.live;

import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebListener;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionListener;

/**
 * A session that ends on this node (logout, time-out, an admin's removal) ends its live streams
 * here: each of its pages is told it gets no more news, and a stream left with no page is ended
 * ({@link LivePages#sessionEnded}). With the data grid a session ends on one node; a stream of it
 * on another node ends when its pages' views end there or its client goes.
 */
@WebListener
public class LiveSessions implements HttpSessionListener {

    @Inject LivePages live;

    @Override
    public void sessionDestroyed(HttpSessionEvent event) {
        live.sessionEnded(event.getSession().getId());
    }
}
