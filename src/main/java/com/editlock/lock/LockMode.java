package com.editlock.lock;

/**
 * {@code WRITE} is exclusive; {@code READ} is shared with other readers and blocks writers.
 * Compatibility is decided by the database when a lock is granted, never in memory.
 */
public enum LockMode {
    READ,
    WRITE;

    /**
     * Parses a mode as users type it ({@code write}, {@code READ}); anything else is a clear error.
     */
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
