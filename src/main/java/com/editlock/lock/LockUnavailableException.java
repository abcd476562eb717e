package com.editlock.lock;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The lock cannot be granted now: someone else holds {@code key} or a lock that overlaps it.
 * Carries who, since when and until when at the latest, so a screen can say so. Nothing was
 * granted.
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
        Set<String> names = new LinkedHashSet<>();
        holders.forEach(lock -> names.add(lock.displayName()));
        return key + " is locked by " + String.join(", ", names) + ".";
    }
}
