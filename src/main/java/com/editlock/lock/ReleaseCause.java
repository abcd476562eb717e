package com.editlock.lock;

/** Why a lock ended; written to {@code lock_event.event_type}. */
public enum ReleaseCause {
    /** Save, Done, Cancel, or an API client's DELETE. */
    RELEASED,
    /** The tab that took it closed or went silent. */
    VIEW_CLOSED,
    /** The HTTP session ended: logout or timeout. */
    SESSION_ENDED,
    /** The lease lapsed without a heartbeat. */
    EXPIRED,
    /** An admin released it, with a reason. */
    FORCE_RELEASED
}
