package com.editlock.lock;

import java.io.Serializable;
import java.time.Instant;

/**
 * One held lock as the database has it. {@code ownerId} and {@code view} identify the holder's
 * session and tab: they are for the server only and never reach another user.
 */
public record Lock(
        LockKey key,
        LockKey aggregate,
        LockMode mode,
        String ownerId,
        String view,
        String userLogin,
        String displayName,
        Instant acquiredAt,
        Instant renewedAt,
        Instant expiresAt,
        long fencingToken)
        implements Serializable {

    public boolean isHeldBy(String someOwnerId) {
        return ownerId.equals(someOwnerId);
    }
}
