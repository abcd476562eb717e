package com.editlock.lock.internal;

/** The lock table could not be read or written (database down, …); the operation did not happen. */
class LockStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LockStoreException(String operation, Throwable cause) {
        super("The lock store failed to " + operation + ": " + cause.getMessage(), cause);
    }
}
