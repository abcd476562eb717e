package com.editlock.configurator;

import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.inject.Inject;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Once an hour, on every node: drafts older than {@code locks.draft.retention.days} go. */
@Singleton
public class DraftPurge {

    private static final Logger LOG = Logger.getLogger(DraftPurge.class.getName());

    @Inject Drafts drafts;

    @Schedule(hour = "*", minute = "23", persistent = false)
    void purge() {
        try {
            int purged = drafts.purge();
            if (purged > 0) {
                LOG.info(() -> "Purged " + purged + " drafts past their retention.");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not purge old drafts; next hour again.", e);
        }
    }
}
