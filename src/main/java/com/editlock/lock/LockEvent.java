package com.editlock.lock;

import java.time.Instant;

/**
 * One line of the lock history: a grant ({@code ACQUIRED}, {@code REACQUIRED}), a {@code DENIED} attempt, a
 * {@code RENEWED_AFTER_LAPSE}, or a release with its cause (see {@link ReleaseCause}); {@code actor} and
 * {@code reason} are set for force releases.
 */
public record LockEvent(long id, Instant at, String type, String resource, String mode, String userLogin,
        String displayName, Long fencingToken, String actor, String reason) {
}
