package com.editlock.lock;

/**
 * Every kind of line in the lock history ({@code lock_event.event_type}): grants, a refusal, a
 * revival, releases, and the steps of a request to hand a lock over.
 */
public enum LockEventType {
    /** A new lock was granted. */
    ACQUIRED,
    /**
     * The owner took a lock it already held again (a reload): same fencing token, moved to the new
     * tab.
     */
    REACQUIRED,
    /** A heartbeat renewed a lease that had lapsed, before anyone else took or swept the lock. */
    RENEWED_AFTER_LAPSE,
    /** An acquisition was refused because someone else holds the resource or an overlapping one. */
    DENIED,
    /** Released on purpose: Save, Done, Cancel, or an API client's DELETE. */
    RELEASED,
    /** The tab that took it closed or went silent. */
    VIEW_CLOSED,
    /** The HTTP session ended: logout or timeout. */
    SESSION_ENDED,
    /**
     * The lease lapsed without a heartbeat and the lock was deleted (by the sweep, or by a later
     * acquisition).
     */
    EXPIRED,
    /** An admin released it, with a reason. */
    FORCE_RELEASED,
    /**
     * An admin or a person with the take-over role took it, with a reason, in the same transaction
     * that granted it to them (their {@code ACQUIRED} line follows): nobody could get in between.
     */
    TAKEN_OVER,
    /**
     * The holder handed the lock to the person who asked for it ({@code actor}, with their note),
     * in the same transaction that granted it to them (their {@code ACQUIRED} line follows).
     */
    HANDED_OVER,
    /**
     * Someone ({@code actor}) asked the holder of this lock to hand it over, with an optional note
     * ({@code reason}). Changes no lock.
     */
    HANDOVER_ASKED,
    /**
     * The holder kept editing, with an optional reply ({@code reason}) to the asker ({@code
     * actor}). Changes no lock.
     */
    HANDOVER_DECLINED,
    /** Nobody answered the asker ({@code actor}) in time. Changes no lock. */
    HANDOVER_TIMED_OUT,
    /** The asker ({@code actor}) withdrew the request, or closed the tab that made it. */
    HANDOVER_WITHDRAWN;

    /** Whether this line ends a lock. */
    public boolean endsLock() {
        return switch (this) {
            case RELEASED,
                    VIEW_CLOSED,
                    SESSION_ENDED,
                    EXPIRED,
                    FORCE_RELEASED,
                    TAKEN_OVER,
                    HANDED_OVER ->
                    true;
            default -> false;
        };
    }

    /** Whether this line is a step of a hand-over request that changes no lock. */
    public boolean isRequestStep() {
        return switch (this) {
            case HANDOVER_ASKED, HANDOVER_DECLINED, HANDOVER_TIMED_OUT, HANDOVER_WITHDRAWN -> true;
            default -> false;
        };
    }
}
