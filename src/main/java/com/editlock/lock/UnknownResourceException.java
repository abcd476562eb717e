package com.editlock.lock;

/** A well-formed key whose record does not exist; nothing was changed. */
public class UnknownResourceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final LockKey key;

    public UnknownResourceException(LockKey key) {
        super("There is no " + key + ": it may have been deleted.");
        this.key = key;
    }

    public LockKey key() {
        return key;
    }
}
