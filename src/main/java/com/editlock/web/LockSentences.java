package com.editlock.web;

import com.editlock.configurator.EditVisits;
import com.editlock.lock.Lock;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LostLock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The sentences screens use to say who holds what ("Being edited by Sara since 10:47 — free at
 * 11:17 at the latest"), how a lock ended, by its cause ("Sara's browser closed"), and what
 * happened to the reader's own lock, in the reader's language and zone. The record is named as
 * people know it, never by its key.
 */
public final class LockSentences {

    private final Viewpoint reader;

    public LockSentences(Viewpoint reader) {
        this.reader = reader;
    }

    public String youAreEditing() {
        return reader.say("lock.editing");
    }

    /**
     * For a screen that could not take its lock: who holds it, since when, free at the latest when.
     */
    public String beingEdited(List<Lock> holders) {
        Lock first = holders.get(0);
        var latest =
                holders.stream()
                        .map(Lock::expiresAt)
                        .max(java.util.Comparator.naturalOrder())
                        .orElseThrow();
        return reader.say(
                "lock.beingEdited",
                names(holders),
                reader.clock(first.acquiredAt()),
                reader.clock(latest));
    }

    /** For the list: a short state of one configurator. */
    public String listState(List<Lock> locksInAggregate) {
        if (locksInAggregate.isEmpty()) {
            return reader.say("list.free");
        }
        boolean whole = locksInAggregate.stream().anyMatch(l -> l.key().isAggregate());
        return reader.say(
                whole ? "list.beingEdited" : "list.partsBeingEdited",
                names(locksInAggregate),
                reader.clock(locksInAggregate.get(0).acquiredAt()));
    }

    /**
     * For a read-only page whose record just became free: who was in the way and how their lock
     * ended ({@code null}: not known), then that the reader can edit it now.
     */
    public String freeNow(String holders, LockEventType ending, String actor, String reason) {
        if (holders == null) {
            return reader.say("lock.free.nobody");
        }
        String cause =
                ending == null
                        ? reader.say("cause.finished", holders)
                        : switch (ending) {
                            case VIEW_CLOSED -> reader.say("cause.closed", holders);
                            case EXPIRED ->
                                    reader.say("cause.lapsed", holders, reader.leaseSeconds());
                            case SESSION_ENDED -> reader.say("cause.sessionEnded", holders);
                            case FORCE_RELEASED ->
                                    reader.say("cause.forceReleased", actor, holders, reason);
                            default -> reader.say("cause.finished", holders);
                        };
        return reader.say("lock.free.after", cause);
    }

    /** The same, with the ending as an edit visit tells it. */
    public String freeNow(String holders, Optional<EditVisits.Ending> ending) {
        return freeNow(
                holders,
                ending.map(EditVisits.Ending::type).orElse(null),
                ending.map(EditVisits.Ending::actorName).orElse(null),
                ending.map(EditVisits.Ending::reason).orElse(null));
    }

    /** Who is looking at a record, each marked "(you)" and "editing" where it applies. */
    public List<String> lookers(List<EditVisits.Looker> lookers) {
        return lookers.stream()
                .map(
                        v ->
                                v.displayName()
                                        + (v.isMe() ? reader.say("viewers.you") : "")
                                        + (v.editing() ? reader.say("viewers.editing") : ""))
                .toList();
    }

    /**
     * For an open page that just lost its lock: what happened, who holds the record now, and that
     * the typed input stays (kept as a draft) but cannot be saved.
     */
    public String lost(LostLock lost, String record) {
        return whatHappened(lost, record) + " " + reader.say("lost.kept");
    }

    /** For a save that found no lock: what happened, and that nothing was saved. */
    public String refusedSave(LostLock lost, String record) {
        return whatHappened(lost, record) + " " + reader.say("lost.nothingSaved");
    }

    private String whatHappened(LostLock lost, String record) {
        if (lost.readOnly()) {
            return reader.say("lost.readOnly", record);
        }
        String what =
                lost.ending() == null
                        ? reader.say("lost.none", record)
                        : switch (lost.ending()) {
                            case FORCE_RELEASED ->
                                    reader.say("lost.forceReleased", lost.actor(), lost.reason());
                            case TAKEN_OVER ->
                                    reader.say("lost.takenOver", lost.actor(), lost.reason());
                            case HANDED_OVER -> reader.say("lost.handedOver", lost.actor());
                            case EXPIRED -> reader.say("lost.expired", reader.leaseSeconds());
                            case SESSION_ENDED -> reader.say("lost.sessionEnded");
                            case VIEW_CLOSED -> reader.say("lost.closed");
                            default -> reader.say("lost.released");
                        };
        String now =
                lost.holderNow()
                        .map(
                                l ->
                                        reader.say(
                                                "lost.holderNow",
                                                l.displayName(),
                                                reader.clock(l.acquiredAt())))
                        .orElse(reader.say("lost.nobodyNow"));
        return what + " " + now;
    }

    /** The holders' names, each once, in order. */
    public static String names(List<Lock> locks) {
        Set<String> names = new LinkedHashSet<>();
        locks.forEach(l -> names.add(l.displayName()));
        return String.join(", ", names);
    }
}
