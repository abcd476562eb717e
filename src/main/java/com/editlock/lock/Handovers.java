package com.editlock.lock;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Asking the holder of a lock to hand it over. A person who finds a record locked asks its holder
 * (with an optional note); the holder hands it over — the lock passes in one transaction through
 * the store's own hand-over, with no moment a third person could take it — or keeps editing (with
 * an optional reply); a request nobody answers times out after {@code
 * locks.handover.timeout.seconds} and changes nothing. Every step is a line in the lock history,
 * which is also how every open page hears of it.
 *
 * <p>Bounds: one open request per person and record; at most {@value #MAX_OPEN_PER_PERSON} open per
 * person; at most {@value #MAX_PER_RECORD_IN_WINDOW} requests per person and record in {@value
 * #WINDOW_MINUTES} minutes; a note or reply of at most {@value #MAX_TEXT} characters of plain text.
 */
public interface Handovers {

    int MAX_OPEN_PER_PERSON = 5;
    int MAX_PER_RECORD_IN_WINDOW = 3;
    int WINDOW_MINUTES = 10;
    int MAX_TEXT = 500;

    /**
     * {@code asker} (from tab {@code view}, or {@code null} for an API client) asks whoever holds
     * the WRITE lock on {@code key} to hand it over.
     *
     * @throws IllegalArgumentException when the note is too long or not plain text
     * @throws HandoverRefusedException when nobody else holds it, the asker already asked, or asks
     *     too often
     */
    HandoverRequest ask(LockKey key, LockOwner asker, String view, String note);

    /**
     * The holder's answer: hand over (the lock passes to the asker's tab) or keep editing, with an
     * optional reply. Only the session that holds the lock answers.
     *
     * @throws IllegalArgumentException when the reply is too long or not plain text
     * @throws HandoverRefusedException when the request is unknown, not the caller's to answer, no
     *     longer open, or the holder's lock already ended
     * @throws LockUnavailableException when others' locks besides the holder's stand in the way
     */
    HandoverRequest answer(long id, String holderOwnerId, boolean handOver, String reply);

    /**
     * The asker takes their open request back.
     *
     * @throws HandoverRefusedException when it is unknown, not theirs, or no longer open
     */
    HandoverRequest withdraw(long id, String askerOwnerId);

    /** The open requests one tab made (it closed): withdrawn. */
    void withdrawFromView(String askerOwnerId, String view);

    /** The request, for its asker or its holder; empty for anyone else. */
    Optional<HandoverRequest> find(long id, String ownerId);

    /** The open requests to the grant {@code holderToken}, oldest first. */
    List<HandoverRequest> openTo(long holderToken);

    /** The newest request {@code askerOwnerId} made for {@code key}, open or not. */
    Optional<HandoverRequest> latest(String askerOwnerId, LockKey key);

    /** The open requests for any of {@code keys} (the dashboard), oldest first. */
    List<HandoverRequest> openFor(Collection<LockKey> keys);

    /**
     * Times out the open requests past their time and ends those whose grant ended another way;
     * safe on several nodes at once. Returns how many timed out.
     */
    int expire();

    /** Deletes requests asked more than {@code days} ago. Returns how many. */
    int purge(int days);
}
