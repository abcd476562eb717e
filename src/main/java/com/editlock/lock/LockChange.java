package com.editlock.lock;

import java.time.Instant;

/**
 * A grant or a release that happened anywhere (any node, any path), as the CDI event every screen
 * observes. It is read from the lock history, so it carries the cause, and for a force release who
 * did it and why. {@code ownerId} is for the server only: it tells a holder's own pages that their
 * lock is gone, and never reaches another user.
 */
public record LockChange(
        long eventId,
        Instant at,
        LockEventType type,
        LockKey key,
        LockKey aggregate,
        String ownerId,
        String userLogin,
        String displayName,
        Long fencingToken,
        String actor,
        String reason) {

    /** Whether this change took the lock away from its holder. */
    public boolean endsLock() {
        return type.endsLock();
    }

    /** Whether this change gave someone the lock (a new grant, or the holder's reload). */
    public boolean grants() {
        return type == LockEventType.ACQUIRED || type == LockEventType.REACQUIRED;
    }
}
