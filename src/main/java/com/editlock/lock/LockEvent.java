package com.editlock.lock;

import java.time.Instant;

/**
 * One line of the lock history. {@code actor} and {@code reason} are set for force releases; {@code
 * fencingToken} is {@code null} for a refusal, which was never granted one.
 */
public record LockEvent(
        long id,
        Instant at,
        LockEventType type,
        String resource,
        String mode,
        String userLogin,
        String displayName,
        Long fencingToken,
        String actor,
        String reason) {}
