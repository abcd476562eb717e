package com.editlock.web;

import com.editlock.lock.Lock;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The sentences screens use to say who holds what ("Being edited by Sara since 10:47 — free at
 * 11:17 at the latest").
 */
public final class LockSentences {

    private final DateTimeFormatter clock;

    public LockSentences(ZoneId zone) {
        this.clock = DateTimeFormatter.ofPattern("HH:mm").withZone(zone);
    }

    public static LockSentences forServer() {
        return new LockSentences(ZoneId.systemDefault());
    }

    public String youAreEditing() {
        return "You are editing";
    }

    /**
     * For a screen that could not take its lock: who holds it, since when, free at the latest when.
     */
    public String beingEdited(List<Lock> holders) {
        Lock first = holders.get(0);
        var latest =
                holders.stream()
                        .map(Lock::expiresAt)
                        .max(java.util.Comparator.naturalOrder())
                        .orElseThrow();
        return "Being edited by "
                + names(holders)
                + " since "
                + clock.format(first.acquiredAt())
                + " — free at "
                + clock.format(latest)
                + " at the latest";
    }

    /** For the list: a short state of one configurator. */
    public String listState(List<Lock> locksInAggregate) {
        if (locksInAggregate.isEmpty()) {
            return "Free";
        }
        boolean whole = locksInAggregate.stream().anyMatch(l -> l.key().isAggregate());
        String since = clock.format(locksInAggregate.get(0).acquiredAt());
        return (whole ? "Being edited by " : "Parts being edited by ")
                + names(locksInAggregate)
                + " since "
                + since;
    }

    /** The holders' names, each once, in order. */
    public static String names(List<Lock> locks) {
        Set<String> names = new LinkedHashSet<>();
        locks.forEach(l -> names.add(l.displayName()));
        return String.join(", ", names);
    }
}
