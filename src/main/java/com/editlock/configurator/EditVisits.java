package com.editlock.configurator;

import com.editlock.live.LivePages;
import com.editlock.live.Presence;
import com.editlock.live.Viewer;
import com.editlock.lock.Lock;
import com.editlock.lock.LockEvent;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LostLock;
import com.editlock.lock.ResourceCatalog;
import com.editlock.security.UserDirectory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The lock side of one edit visit, from the page opening to Save or Done: the screen ({@code
 * web.LockedEditor}) only shows what this service answers. A visit <em>enters</em> (its tab joins
 * the record's live stream and its viewers), <em>looks</em> whenever the stream says something
 * changed (who holds what in the aggregate, who is in the way, who is looking), and ends by a save,
 * by Done, by a take-over elsewhere or by the tab going away.
 *
 * <p>A save is the end that must happen all or not at all: it writes the record under its fencing
 * token, releases the lock and deletes the draft it saved, in <b>one</b> transaction. Until 2026-12
 * these were three: a failure after the write left the lock to its lease (the record showed "being
 * edited" for up to a lease after a successful save) and the saved draft behind (offered again on
 * the next visit). Now a failure anywhere rolls all of it back: nothing is written, the editor
 * keeps the lock and what was typed, and Save can be pressed again.
 *
 * <p>What a page can do without (the draft offer, how the last lock ended) is answered empty when
 * the store cannot tell; it is logged and the page goes on.
 */
@ApplicationScoped
public class EditVisits {

    private static final Logger LOG = Logger.getLogger(EditVisits.class.getName());

    /** One person looking at the record, and whether they are editing it (or all of it). */
    public record Looker(String displayName, boolean isMe, boolean editing) {}

    /**
     * What a look found: every lock in the record's aggregate, those of other sessions that keep
     * this visit from editing the record, and who is looking at it.
     */
    public record Look(List<Lock> inAggregate, List<Lock> inTheWay, List<Looker> lookers) {

        /** Nobody else stands in the way of editing. */
        public boolean free() {
            return inTheWay.isEmpty();
        }
    }

    /** How a lock last ended: the history's line, with its actor's name when one acted. */
    public record Ending(LockEventType type, String actorName, String reason) {}

    @Inject LockManager locks;

    @Inject Drafts drafts;

    @Inject LivePages live;

    @Inject Presence presence;

    @Inject ResourceCatalog catalog;

    @Inject UserDirectory directory;

    /**
     * The tab {@code view} shows {@code key}: it hears the live news of the record and its
     * aggregate, and is listed among its viewers. Returns the aggregate.
     */
    public LockKey enter(LockKey key, LockOwner me, String view) {
        LockKey aggregate = catalog.aggregateOf(key);
        live.open(view, me.ownerId(), key, aggregate);
        presence.join(key, new Viewer(view, me.ownerId(), me.login(), me.displayName()));
        return aggregate;
    }

    /** Looks at {@code key} in {@code aggregate} as the session {@code ownerId} sees it. */
    public Look look(LockKey key, LockKey aggregate, String ownerId) {
        List<Lock> inAggregate = locks.locksIn(aggregate);
        List<Lock> inTheWay =
                inAggregate.stream()
                        .filter(
                                l ->
                                        !l.isHeldBy(ownerId)
                                                && (l.key().equals(key)
                                                        || l.key().isAggregate()
                                                        || key.isAggregate()))
                        .toList();
        List<Looker> lookers =
                presence.viewers(key).stream()
                        .map(
                                v ->
                                        new Looker(
                                                v.displayName(),
                                                v.ownerId().equals(ownerId),
                                                inAggregate.stream()
                                                        .anyMatch(
                                                                l ->
                                                                        l.isHeldBy(v.ownerId())
                                                                                && covers(l, key))))
                        .toList();
        return new Look(inAggregate, inTheWay, lookers);
    }

    private static boolean covers(Lock l, LockKey key) {
        return l.key().equals(key) || l.key().isAggregate();
    }

    /** Whether {@code held} was lost, and how. */
    public Optional<LostLock> lost(Lock held) {
        return locks.lost(held);
    }

    /** The person's kept draft of {@code key}, to offer when they open it for editing. */
    public Optional<Drafts.Draft> offeredDraft(String login, LockKey key) {
        try {
            return drafts.find(login, key);
        } catch (RuntimeException e) { // the page works without the offer; the draft stays kept
            LOG.log(Level.WARNING, "Could not read a draft", e);
            return Optional.empty();
        }
    }

    /**
     * How the lock on {@code key} last ended, to say why the record is free; empty when the history
     * does not tell.
     */
    public Optional<Ending> lastEnding(LockKey key) {
        try {
            return locks.lastEnding(key).map(this::ending);
        } catch (RuntimeException e) { // the sentence then names no cause
            LOG.log(Level.FINE, "Could not read how a lock ended", e);
            return Optional.empty();
        }
    }

    private Ending ending(LockEvent e) {
        return new Ending(
                e.type(), e.actor() == null ? null : directory.displayName(e.actor()), e.reason());
    }

    /**
     * Takes {@code key} from its holder for tab {@code view} in one step, with the reason the
     * history keeps.
     */
    public Lock takeOver(LockKey key, LockOwner me, String view, String reason) {
        return locks.takeOver(key, me, view, me.login(), reason);
    }

    /** Done: releases {@code held}, unless a newer tab of the same session took it over. */
    public void leave(Lock held, String view) {
        locks.release(held.key(), held.ownerId(), view);
    }

    /**
     * The tab's view is gone: it stops hearing news and, when it still held a lock, releases the
     * locks it took (a failure is left to the lease).
     */
    public void forget(String view, String ownerId, boolean holding) {
        live.forget(view);
        if (holding) {
            try {
                locks.releaseView(ownerId, view);
            } catch (RuntimeException e) {
                LOG.log(
                        Level.FINE,
                        "Could not release the locks of a destroyed view; the lease will.",
                        e);
            }
        }
    }

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
