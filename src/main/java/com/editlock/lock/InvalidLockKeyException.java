package com.editlock.lock;

/** A resource key that does not have one of the accepted shapes; nothing was changed. */
public class InvalidLockKeyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidLockKeyException(String message) {
        super(message);
    }
}
