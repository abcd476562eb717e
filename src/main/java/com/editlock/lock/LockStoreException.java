package com.editlock.lock;

/**
 * The lock table could not be read or written now (database down or overloaded, a conflict that
 * stayed after the retries); the operation did not happen, and trying again later is safe.
 */
public class LockStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LockStoreException(String operation, Throwable cause) {
        super("The lock store failed to " + operation + ": " + cause.getMessage(), cause);
    }

    /**
     * Whether {@code failure} comes from the database not answering (or failing) rather than from a
     * bug: it, or a cause, is this exception, a JDBC failure, or the persistence or transaction
     * layer's wrapping of one.
     */
    public static boolean isDatabaseFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof LockStoreException
                    || t instanceof java.sql.SQLException
                    || t instanceof jakarta.persistence.PersistenceException
                    || t.getClass().getName().startsWith("org.eclipse.persistence.exceptions.")
                    || t instanceof jakarta.transaction.SystemException
                    || t instanceof jakarta.transaction.RollbackException
                    || t instanceof jakarta.transaction.HeuristicMixedException
                    || t instanceof jakarta.transaction.HeuristicRollbackException) {
                return true;
            }
        }
        return false;
    }

    /** What a person is told: nothing changed, try again. */
    public static String userMessage() {
        return "Locks cannot be checked right now (the database is busy or unreachable), so nothing was changed. "
                + "Try again in a moment.";
    }
}
