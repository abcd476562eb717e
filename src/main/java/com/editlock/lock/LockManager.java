package com.editlock.lock;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The lock protocol, as screens, the API and services use it: Fowler's <em>Pessimistic Offline
 * Lock</em> with the database as referee. What administrators do (find, sum up, force-release, read
 * and purge the history) is {@link LockAdministration}; what only the store's own machinery does
 * (renew leases in bulk, sweep lapsed locks, pass a lock on for a hand-over) belongs to neither
 * face and lives in {@code lock.internal}.
 *
 * <p>The protocol:
 *
 * <ol>
 *   <li>A screen or client calls {@link #acquire} <em>before</em> loading a record for editing. The
 *       call never waits: when another owner holds the resource, or a lock that overlaps it inside
 *       the same aggregate, it throws {@link LockUnavailableException} at once, naming who holds
 *       it, since when and until when at the latest.
 *   <li>A grant carries a fencing token; every save presents it ({@link #verify}) in the save's own
 *       transaction, so a writer who lost the lock is refused.
 *   <li>The holder's heartbeat (in bulk per node through {@link Heartbeats}) extends the lease;
 *       without it the lock lapses and the node's sweep removes it.
 *   <li>Locks end explicitly ({@link #release}), with the tab ({@link #releaseView}), with the HTTP
 *       session ({@link #releaseAll}), by lease expiry, or by an admin ({@link
 *       LockAdministration#forceRelease}). Every grant, denial and release is written to {@code
 *       lock_event} with its cause.
 * </ol>
 *
 * Re-acquiring a lock one already holds succeeds, keeps its token and moves it to the new view (a
 * page reload). Several locks are taken in canonical key order, all or none.
 */
public interface LockManager {

    /**
     * Acquires {@code key} for {@code owner} from {@code view} (a tab's token, or {@code null} for
     * API clients).
     */
    Lock acquire(LockKey key, LockMode mode, LockOwner owner, String view);

    /** Acquires all keys, in canonical order, or none of them. */
    List<Lock> acquireAll(Collection<LockKey> keys, LockMode mode, LockOwner owner, String view);

    /**
     * Releases the owner's lock on {@code key} if tab {@code view} holds it ({@code null}:
     * whichever tab, as API clients have none); idempotent. A tab whose lock moved to a newer tab
     * (a reload) releases nothing. Returns whether a lock was released.
     */
    boolean release(LockKey key, String ownerId, String view);

    /**
     * Releases the locks that one tab of the owner took (tab closed). Returns the released keys.
     */
    List<LockKey> releaseView(String ownerId, String view);

    /**
     * Releases everything the owner holds (session ended); safe to call twice. Returns the released
     * keys.
     */
    List<LockKey> releaseAll(String ownerId);

    /** The live lock on {@code key}: the writer if there is one, else the oldest reader. */
    Optional<Lock> holder(LockKey key);

    /** The live locks inside {@code aggregate} (on it and on its sub-pages), oldest first. */
    List<Lock> locksIn(LockKey aggregate);

    /**
     * The live locks inside any of {@code aggregates}, oldest first: one query for a whole list
     * screen.
     */
    List<Lock> locksIn(Collection<LockKey> aggregates);

    /**
     * Whether {@code held} is still live, for a page that wants to tell its user at once: empty
     * while it is, else why it is gone. A read, not a fencing check: a save still goes through
     * {@link #verify}.
     */
    Optional<LostLock> lost(Lock held);

    /** The owner's live locks. */
    List<Lock> locksOf(String ownerId);

    /**
     * Takes {@code key} from whoever holds it and grants it to {@code taker} (WRITE, for {@code
     * view}) in one transaction under the aggregate's serialization: the holder's lines end {@code
     * TAKEN_OVER} with {@code actorLogin} and the reason, the taker's {@code ACQUIRED} follows, and
     * no third acquirer can be granted anything in between. When the holder also holds other locks
     * of the aggregate that stand in the way, nothing changes.
     *
     * @throws IllegalArgumentException when the reason is blank or longer than 500 characters
     * @throws LockUnavailableException when locks other than those on {@code key} stand in the way
     */
    Lock takeOver(LockKey key, LockOwner taker, String view, String actorLogin, String reason);

    /**
     * Checks, inside the caller's transaction, that {@code owner} still holds a live WRITE lock on
     * {@code key} with {@code fencingToken}, and keeps it from being released until that
     * transaction ends. A READ lock never writes.
     *
     * @throws LockNotHeldException when it does not, with a sentence that says what happened
     *     ({@link LostLock})
     */
    Lock verify(LockKey key, String ownerId, long fencingToken);

    /**
     * How the last lock on {@code key} ended (the newest line of its history that ends a lock), to
     * tell a page why the record is free; empty when its history holds no ending.
     */
    Optional<LockEvent> lastEnding(LockKey key);
}
