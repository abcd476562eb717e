package com.editlock.lock;

/**
 * One page of the live locks, as the admin dashboard asks for it: optional filters, one sort
 * column, a window.
 *
 * @param user part of a holder's login or name ({@code null}: anyone)
 * @param kind what the lock is on ({@code null}: anything)
 * @param minAgeSeconds held at least this long ({@code null}: any age)
 */
public record LockQuery(
        String user,
        LockKey.Kind kind,
        Integer minAgeSeconds,
        Sort sort,
        boolean descending,
        int offset,
        int limit) {

    /**
     * What the table sorts by; each maps to a column in the store, never to text from the request.
     */
    public enum Sort {
        RESOURCE,
        MODE,
        HOLDER,
        ACQUIRED,
        RENEWED,
        EXPIRES,
        TOKEN
    }

    public LockQuery {
        if (offset < 0 || limit < 1 || limit > 500) {
            throw new IllegalArgumentException(
                    "A page starts at 0 or later and has 1 to 500 rows.");
        }
        if (minAgeSeconds != null && minAgeSeconds < 0) {
            throw new IllegalArgumentException("A minimum age cannot be negative.");
        }
        user = user == null || user.isBlank() ? null : user.strip();
        sort = sort == null ? Sort.ACQUIRED : sort;
    }
}
