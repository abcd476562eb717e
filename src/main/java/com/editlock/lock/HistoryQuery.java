package com.editlock.lock;

import java.time.Instant;

/**
 * One page of the lock history, newest first, with optional filters ({@code null}: no filter).
 *
 * @param resource one resource key
 * @param user a login: the holder, or the admin who acted
 * @param type one kind of line
 * @param from at or after
 * @param until before
 */
public record HistoryQuery(
        LockKey resource,
        String user,
        LockEventType type,
        Instant from,
        Instant until,
        int offset,
        int limit) {

    public HistoryQuery {
        if (offset < 0 || limit < 1 || limit > 500) {
            throw new IllegalArgumentException(
                    "A page starts at 0 or later and has 1 to 500 rows.");
        }
        user = user == null || user.isBlank() ? null : user.strip();
    }
}
