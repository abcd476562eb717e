package com.editlock.lock;

/**
 * A write was attempted without a live WRITE lock that covers it (released, expired, swept or
 * force-released, held for reading only, or never taken). Nothing was written.
 */
public class LockNotHeldException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final LockKey key;

    /** Why, when known. */
    private final transient LostLock lost;

    public LockNotHeldException(LockKey key, String message) {
        super(message);
        this.key = key;
        this.lost = null;
    }

    public LockNotHeldException(LostLock lost) {
        super(lost.sentence());
        this.key = lost.key();
        this.lost = lost;
    }

    /** How the lock ended, when known. */
    public java.util.Optional<LostLock> lost() {
        return java.util.Optional.ofNullable(lost);
    }

    public LockKey key() {
        return key;
    }
}
