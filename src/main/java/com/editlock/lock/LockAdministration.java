package com.editlock.lock;

import java.util.Collection;
import java.util.List;

/**
 * What administrators do with the locks, beside the protocol ({@link LockManager}): find and sum up
 * the live locks, force-release them (one record, a selection, everything of a person), read the
 * history and purge it. Its callers are the admin dashboard, the history page, the API's admin
 * endpoints and the store's retention timer; the architecture test keeps it so.
 *
 * <p>A force release ends every lock on the key, whoever holds it and in whatever mode, in one
 * statement that deletes and audits ({@code FORCE_RELEASED}, with the admin and the reason), and
 * answers with the locks it ended: an empty answer means nobody held it.
 */
public interface LockAdministration {

    /** The longest reason a force release accepts. */
    int MAX_REASON = 500;

    /** A page of the live locks, filtered and sorted in the database (the admin dashboard). */
    LockPage<Lock> find(LockQuery query);

    /** Locks held now, refusals and force releases in the last hour, the oldest lock. */
    LockSummary summary();

    /**
     * Releases whoever holds {@code key}, audited with the admin and the reason.
     *
     * @throws IllegalArgumentException when the reason is blank, longer than {@value #MAX_REASON}
     *     characters or not plain text; nothing changes
     */
    List<Lock> forceRelease(LockKey key, String adminLogin, String reason);

    /**
     * Releases whoever holds each of {@code keys} (a selection on the dashboard), each key in its
     * own audited statement as {@link #forceRelease(LockKey, String, String)} does, the reason
     * checked once before anything changes. Returns every lock it ended.
     *
     * @throws IllegalArgumentException when the reason is blank, too long or not plain text
     */
    List<Lock> forceRelease(Collection<LockKey> keys, String adminLogin, String reason);

    /**
     * Releases everything {@code userLogin} holds, in all their sessions, audited with the admin
     * and the reason.
     *
     * @throws IllegalArgumentException when the reason is blank, too long or not plain text
     */
    List<Lock> forceReleaseAllOf(String userLogin, String adminLogin, String reason);

    /** A page of the history, newest first. */
    LockPage<LockEvent> history(HistoryQuery query);

    /**
     * The newest {@code limit} history lines of {@code key} (all resources when {@code null}),
     * newest first; {@code limit} is held to 1–1,000.
     */
    List<LockEvent> history(LockKey key, int limit);

    /**
     * Deletes history lines older than {@code days}, in batches each committed on its own. Returns
     * how many.
     */
    long purgeHistory(int days);
}
