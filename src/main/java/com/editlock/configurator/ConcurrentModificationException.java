package com.editlock.configurator;

/** The aggregate's version changed under a save (a lock was bypassed); nothing was written. */
public class ConcurrentModificationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConcurrentModificationException(String message) {
        super(message);
    }
}
