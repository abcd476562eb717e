package com.editlock.lock;

/**
 * The lock table could not be read or written now (database down or overloaded, a conflict that stayed after the
 * retries); the operation did not happen, and trying again later is safe.
 */
public class LockStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LockStoreException(String operation, Throwable cause) {
        super("The lock store failed to " + operation + ": " + cause.getMessage(), cause);
    }

    /** What a person is told: nothing changed, try again. */
    public static String userMessage() {
        return "Locks cannot be checked right now (the database is busy or unreachable), so nothing was changed. "
                + "Try again in a moment.";
    }
}
