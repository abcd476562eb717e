package com.editlock.lock;

import jakarta.servlet.http.HttpSession;
import java.util.Optional;
import java.util.UUID;

/**
 * Ties lock ownership to an HTTP session. At login the session gets a fresh random owner id and a
 * {@link LockRemover}, which releases everything the owner holds when the session ends (logout or
 * timeout).
 */
public final class SessionLocks {

    private static final String OWNER = LockOwner.class.getName();
    private static final String REMOVER = LockRemover.class.getName();

    private SessionLocks() {}

    /** Makes {@code session} a lock owner for the logged-in user; returns the new owner. */
    public static LockOwner bind(HttpSession session, String login, String displayName) {
        LockOwner owner = new LockOwner(UUID.randomUUID().toString(), login, displayName);
        session.setAttribute(OWNER, owner);
        session.setAttribute(REMOVER, new LockRemover(owner.ownerId()));
        return owner;
    }

    /** The owner bound to {@code session}, if someone logged in with it. */
    public static Optional<LockOwner> owner(HttpSession session) {
        return session == null
                ? Optional.empty()
                : Optional.ofNullable((LockOwner) session.getAttribute(OWNER));
    }
}
