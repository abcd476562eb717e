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
        for (Instant t : new Instant[] {from, until}) {
            if (t != null && !inRange(t)) {
                throw new IllegalArgumentException("Give times between the years 1970 and 9999.");
            }
        }
    }

    /** The earliest time a filter may name; the database could take more, nobody needs it. */
    public static final Instant EARLIEST = Instant.parse("1970-01-01T00:00:00Z");

    /** The latest time a filter may name (the database refuses years past 294276). */
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    /** Whether a filter may name {@code t}. */
    public static boolean inRange(Instant t) {
        return !t.isBefore(EARLIEST) && !t.isAfter(LATEST);
    }
}
