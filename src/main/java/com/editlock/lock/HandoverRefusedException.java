package com.editlock.lock;

/**
 * A request to hand a lock over, or its answer, that cannot be made: the sentence says why and what
 * to do; {@link #reason()} is the stable code the API gives beside it.
 */
public class HandoverRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why, as a stable code. */
    public enum Reason {
        /** Nobody else holds the record for editing: it can simply be opened. */
        NOBODY_HOLDS,
        /** The asker holds it themselves (in this or another session). */
        YOURS,
        /** The asker already has an open request for this record. */
        ALREADY_ASKED,
        /** Too many requests: too many open at once, or asked too often. */
        TOO_MANY,
        /** No such request (or not one the caller may see). */
        UNKNOWN,
        /** The caller may see the request but not answer (or withdraw) it. */
        NOT_YOURS,
        /** The request is no longer open. */
        NOT_OPEN,
        /** The holder's lock ended before the answer. */
        LOCK_ENDED
    }

    private final Reason reason;

    public HandoverRefusedException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
