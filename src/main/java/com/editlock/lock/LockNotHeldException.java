package com.editlock.lock;

/**
 * A write was attempted without a live WRITE lock that covers it (released, expired, swept or
 * force-released, held for reading only, or never taken). Nothing was written.
 */
public class LockNotHeldException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final LockKey key;

    public LockNotHeldException(LockKey key, String message) {
        super(message);
        this.key = key;
    }

    public LockNotHeldException(LostLock lost) {
        this(lost.key(), lost.sentence());
    }

    public LockKey key() {
        return key;
    }
}
