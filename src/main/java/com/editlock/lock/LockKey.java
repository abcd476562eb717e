package com.editlock.lock;

import java.io.Serializable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The canonical name of a lockable resource: {@code configurator:12} (a whole aggregate), {@code
 * configurator:12:variables} and {@code item:88:filters} (sub-pages of an aggregate). Ids are
 * positive integers without leading zeros, so one resource has exactly one key.
 */
public record LockKey(Kind kind, long id) implements Comparable<LockKey>, Serializable {

    /** What a key names. */
    public enum Kind {
        CONFIGURATOR("configurator:%d"),
        CONFIGURATOR_VARIABLES("configurator:%d:variables"),
        ITEM_FILTERS("item:%d:filters");

        private final String format;

        Kind(String format) {
            this.format = format;
        }
    }

    private static final Pattern SYNTAX =
            Pattern.compile("(configurator|item):([1-9][0-9]{0,17})(?::(variables|filters))?");

    public LockKey {
        if (kind == null || id <= 0) {
            throw new InvalidLockKeyException("A resource key needs a kind and a positive id.");
        }
    }

    public static LockKey configurator(long id) {
        return new LockKey(Kind.CONFIGURATOR, id);
    }

    public static LockKey variables(long configuratorId) {
        return new LockKey(Kind.CONFIGURATOR_VARIABLES, configuratorId);
    }

    public static LockKey itemFilters(long itemId) {
        return new LockKey(Kind.ITEM_FILTERS, itemId);
    }

    /**
     * Parses a key; anything that is not exactly one of the three shapes is an {@link
     * InvalidLockKeyException}.
     */
    public static LockKey parse(String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidLockKeyException("A resource key is required, e.g. configurator:1.");
        }
        Matcher m = SYNTAX.matcher(text.trim());
        if (m.matches()) {
            long id = Long.parseLong(m.group(2));
            String sub = m.group(3);
            if (m.group(1).equals("configurator") && sub == null) {
                return configurator(id);
            }
            if (m.group(1).equals("configurator") && "variables".equals(sub)) {
                return variables(id);
            }
            if (m.group(1).equals("item") && "filters".equals(sub)) {
                return itemFilters(id);
            }
        }
        throw new InvalidLockKeyException(
                "'"
                        + abbreviate(text)
                        + "' is not a resource key: use configurator:{id}, "
                        + "configurator:{id}:variables or item:{id}:filters with a positive id.");
    }

    /** True for the key of a whole aggregate (the coarse-grained lock on its version token). */
    public boolean isAggregate() {
        return kind == Kind.CONFIGURATOR;
    }

    @Override
    public int compareTo(LockKey other) {
        return toString().compareTo(other.toString());
    }

    @Override
    public String toString() {
        return String.format(kind.format, id);
    }

    private static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 60) + "…";
    }
}
