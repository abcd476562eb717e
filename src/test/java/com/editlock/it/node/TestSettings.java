package com.editlock.it.node;

/** The settings the integration tests deploy Editlock with (see {@link TestDatabase}). */
public final class TestSettings {
    public static final int LEASE_SECONDS = 10; // the default
    public static final int SWEEP_SECONDS = 2; // the default
    public static final int SESSION_TIMEOUT_SECONDS = 10;

    /** Payara's session reaper runs every 5 s (WEB-INF/payara-web.xml). */
    public static final int REAP_SECONDS = 5;

    /** How long a request to hand a lock over waits for its answer. */
    public static final int HANDOVER_TIMEOUT_SECONDS = 8;

    /** How soon a changed role takes effect in a logged-in session. */
    public static final int ROLE_RECHECK_SECONDS = 2;

    private TestSettings() {}
}
