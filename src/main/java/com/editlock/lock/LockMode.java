package com.editlock.lock;

/** {@code WRITE} is exclusive; {@code READ} is shared with other readers and blocks writers. */
public enum LockMode {
    READ, WRITE;

    /** Whether a lock in this mode may coexist with another owner's lock in {@code other} mode. */
    public boolean compatibleWith(LockMode other) {
        return this == READ && other == READ;
    }

    /** Parses a mode as users type it ({@code write}, {@code READ}); anything else is a clear error. */
    public static LockMode parse(String text) {
        if (text != null) {
            for (LockMode mode : values()) {
                if (mode.name().equalsIgnoreCase(text.trim())) {
                    return mode;
                }
            }
        }
        throw new IllegalArgumentException("Unknown lock mode '" + text + "': use READ or WRITE.");
    }
}
