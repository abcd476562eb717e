package com.editlock.web;

import com.editlock.lock.LockAdministration;
import com.editlock.lock.LockKey;

/**
 * Test fixture: an editing screen that force-releases by itself, which the layering test must
 * refuse (only the dashboard, the history page, the API and the store's timer administer locks).
 */
class PlantedAdministrationCaller {
    void freeItForMe(LockAdministration administration, LockKey key) {
        administration.forceRelease(key, "me", "I need it");
    }
}
