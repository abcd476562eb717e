package com.editlock.configurator;

import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * The end of an edit visit that must happen all or not at all: a save writes the record under its
 * fencing token, releases the lock and deletes the draft it saved, in <b>one</b> transaction. Until
 * 2026-12 these were three: a failure after the write left the lock to its lease (the record showed
 * "being edited" for up to a lease after a successful save) and the saved draft behind (offered
 * again on the next visit). Now a failure anywhere rolls all of it back: nothing is written, the
 * editor keeps the lock and what was typed, and Save can be pressed again.
 */
@ApplicationScoped
public class EditVisits {

    @Inject LockManager locks;

    @Inject Drafts drafts;

    /**
     * Runs {@code write} (a fenced save of {@link ConfiguratorService}, which joins this
     * transaction), then releases {@code held} for tab {@code view} and deletes {@code login}'s
     * draft of {@code draftKey}; all of it commits together or not at all.
     *
     * @throws RuntimeException whatever the write, the release or the draft's deletion threw;
     *     nothing of the three then changed
     */
    @Transactional(Transactional.TxType.REQUIRED)
    public void saveAndRelease(
            Lock held, String view, String login, LockKey draftKey, Runnable write) {
        write.run();
        locks.release(held.key(), held.ownerId(), view);
        drafts.delete(login, draftKey);
    }
}
