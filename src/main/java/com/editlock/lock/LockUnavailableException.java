package com.editlock.lock;

import java.util.List;

/**
 * The lock cannot be granted now: someone else holds {@code key} or a lock that overlaps it. Carries who,
 * since when and until when at the latest, so a screen can say so. Nothing was granted.
 */
public class LockUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final LockKey key;
    private final transient List<Lock> holders;

    public LockUnavailableException(LockKey key, List<Lock> holders) {
        super(describe(key, holders));
        this.key = key;
        this.holders = List.copyOf(holders);
    }

    public LockKey key() {
        return key;
    }

    /** The conflicting locks, oldest first; never empty. */
    public List<Lock> holders() {
        return holders;
    }

    public Lock holder() {
        return holders.get(0);
    }

    private static String describe(LockKey key, List<Lock> holders) {
        StringBuilder names = new StringBuilder();
        for (Lock lock : holders) {
            if (names.indexOf(lock.displayName()) < 0) {
                names.append(names.length() == 0 ? "" : ", ").append(lock.displayName());
            }
        }
        return key + " is locked by " + names + ".";
    }
}
