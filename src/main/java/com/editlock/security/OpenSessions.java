package com.editlock.security;

import jakarta.servlet.http.HttpSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sessions {@link SessionTimeout} watches on this node: for each session id, the one object the
 * container serves that session's requests with now.
 *
 * <p>With the data grid a node may hold more than one object for a session over its life: when a
 * request comes with a newer version of the session than the node's own copy (its user went on at
 * another node, or the node it was on died), the container loads the session from the grid again as
 * a new object and drops the old one. The old object still carries the access time of the last
 * request it served; merely reading it ({@code getAttribute}) makes the container find it timed out
 * and end it — firing its listeners, so its {@code LockRemover} freed the locks of a user at work
 * (seen in {@code GridIT} after a node was killed). So a request's object replaces any older one
 * under its id, and an object the container dropped is never read again.
 */
final class OpenSessions {

    private final Map<String, HttpSession> byId = new ConcurrentHashMap<>();

    /**
     * {@code session} serves its user's requests on this node from now on (a new session, or one a
     * request brought in or loaded again from the grid).
     */
    void serving(HttpSession session) {
        byId.put(session.getId(), session);
    }

    /** {@code session}'s id changed from {@code oldId} (at login). */
    void renamed(HttpSession session, String oldId) {
        byId.remove(oldId, session);
        byId.put(session.getId(), session);
    }

    /** {@code session} ended; a newer object of the same id stays. */
    void ended(HttpSession session) {
        byId.remove(session.getId(), session);
    }

    /** The current object of each session, to be looked at. */
    List<HttpSession> current() {
        List<HttpSession> now = new ArrayList<>();
        byId.forEach(
                (id, session) -> {
                    if (id.equals(session.getId())) {
                        now.add(session);
                    } else {
                        byId.remove(id, session); // its id changed at login
                    }
                });
        return now;
    }

    void clear() {
        byId.clear();
    }
}
