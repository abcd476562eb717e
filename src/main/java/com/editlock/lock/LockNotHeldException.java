package com.editlock.lock;

/**
 * A write was attempted without a live lock that covers it (released, expired, swept or force-released, or
 * never taken). Nothing was written.
 */
public class LockNotHeldException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final LockKey key;

    public LockNotHeldException(LockKey key, String message) {
        super(message);
        this.key = key;
    }

    public LockKey key() {
        return key;
    }
}
