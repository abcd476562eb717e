package com.editlock.lock;

/**
 * Where a tab's heartbeat goes: the node notes it in memory and renews the leases of all the tabs
 * that beat, in one statement, at most a second later (the store's bulk renewal in {@code
 * lock.internal}). Keeping a page's locks alive thus costs the database a fixed number of
 * statements per node, whatever the number of open tabs. The lease a beat earns runs from the beat
 * itself, so the bulk renewal shortens nothing and lengthens nothing; a tab that stops beating
 * lapses within the lease and the sweep, exactly as before, and a node that dies stops renewing its
 * tabs.
 */
public interface Heartbeats {

    /** Tab {@code view} of {@code ownerId} ({@code null}: all the owner's tabs) is alive now. */
    void beat(String ownerId, String view);

    /**
     * One heartbeat from a browser: each of {@code views} (the tabs its shared worker serves) is
     * alive now; an empty list means all the owner's tabs. A browser sends one of these for all its
     * tabs, so the requests a node answers grow with browsers, not tabs.
     */
    default void beatTabs(String ownerId, java.util.List<String> views) {
        if (views.isEmpty()) {
            beat(ownerId, null);
        } else {
            views.forEach(view -> beat(ownerId, view));
        }
    }
}
