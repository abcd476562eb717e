package com.editlock.lock;

import java.io.Serializable;
import java.util.Objects;

/**
 * Who holds a lock: a random owner id bound to one HTTP session (never the servlet session id,
 * which changes at login and must never reach another user's screen), and the person behind it.
 */
public record LockOwner(String ownerId, String login, String displayName) implements Serializable {

    public LockOwner {
        Objects.requireNonNull(ownerId, "ownerId");
        Objects.requireNonNull(login, "login");
        Objects.requireNonNull(displayName, "displayName");
    }
}
