package com.editlock.lock;

import java.time.Instant;

/**
 * One line of the lock history. {@code actor} and {@code reason} are set for force releases; {@code
 * fencingToken} is {@code null} for a refusal, which was never granted one. {@code repeats}: how
 * many times more the same refusal came within a minute of this one (a refusal is audited once a
 * minute per owner, record and mode); 0 for every other line.
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
        String reason,
        int repeats) {}
