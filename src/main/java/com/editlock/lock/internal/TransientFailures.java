package com.editlock.lock.internal;

import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The few database failures that mean "try the whole transaction again": a deadlock victim ({@code
 * 40P01}) and a serialization failure ({@code 40001}). The store's own statements lock rows in one
 * order and should never deadlock each other, but a save, a DBA's session or another application
 * sharing the database can still pick this transaction as a victim. Anything else is not retried.
 */
public final class TransientFailures {

    /** How many times a transaction runs at most. */
    public static final int ATTEMPTS = 3;

    private static final Set<String> RETRYABLE = Set.of("40P01", "40001");

    private TransientFailures() {}

    /** Whether {@code failure}, or anything it was caused by, is a retryable database failure. */
    public static boolean isTransient(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql
                    && sql.getSQLState() != null
                    && RETRYABLE.contains(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs {@code transaction} up to {@link #ATTEMPTS} times while it fails transiently, with a
     * short random pause between attempts so that two victims do not collide again; the last
     * failure is rethrown.
     */
    public static <T> T retry(Callable<T> transaction) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return transaction.call();
            } catch (Exception e) {
                if (attempt >= ATTEMPTS || !isTransient(e)) {
                    throw e;
                }
                Thread.sleep(ThreadLocalRandom.current().nextLong(5, 20L * attempt));
            }
        }
    }
}
