package com.editlock.web;

import com.editlock.lock.HandoverRefusedException;
import com.editlock.lock.HandoverRequest;
import com.editlock.lock.Handovers;
import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LockStoreException;
import com.editlock.lock.LockUnavailableException;
import jakarta.faces.context.FacesContext;
import java.io.Serializable;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The hand-over on an editing screen ({@link LockedEditor}): on a page that finds the record
 * locked, "Ask Sara to hand over" with a note, then where that request stands; on the holder's
 * page, the requests waiting for an answer, with Hand over and Keep editing (and a reply). The
 * page's script sends each step through an {@code h:commandScript} (the page has no inline
 * handlers), after saving the holder's typing as her draft for a hand-over.
 */
public class HandoverPanel implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(HandoverPanel.class.getName());

    /** The reader of the page, for its sentences and times (set by the page before each use). */
    private transient Viewpoint reader;

    /** What the page's record is called, for the holder's sentence (set with the reader). */
    private transient String title;

    /** The page's reader for what follows: sentences in their language, times in their zone. */
    HandoverPanel readBy(Viewpoint reader) {
        this.reader = reader;
        return this;
    }

    /** The same, with what the page's record is called. */
    HandoverPanel readBy(Viewpoint reader, String title) {
        this.title = title;
        return readBy(reader);
    }

    /** The request this page made, and where it stood when the page last looked. */
    private Long askedId;

    private HandoverRequest asked;

    /** The open requests to this page's lock, oldest first. */
    private List<HandoverRequest> toMe = List.of();

    /** Another person's WRITE lock on this very record: whom this page may ask. */
    private Lock askable;

    private String message;

    /** Whether {@link #message} says something went wrong (else it confirms). */
    private boolean failed;

    /** Looks again: the requests to {@code mine}, whom to ask, and this page's own request. */
    void look(Handovers handovers, Lock mine, String ownerId, LockKey key, List<Lock> inAggregate) {
        toMe = mine == null ? List.of() : handovers.openTo(mine.fencingToken());
        askable =
                mine != null
                        ? null
                        : inAggregate.stream()
                                .filter(
                                        l ->
                                                l.key().equals(key)
                                                        && l.mode() == LockMode.WRITE
                                                        && !l.isHeldBy(ownerId))
                                .findFirst()
                                .orElse(null);
        if (askedId != null) {
            asked = handovers.find(askedId, ownerId).orElse(null);
        }
    }

    /** Whether this page's request was answered by handing the record over. */
    boolean handedToThisPage() {
        return asked != null && asked.state() == HandoverRequest.State.HANDED_OVER;
    }

    /** Asks the holder, with the note the page sent. */
    void ask(Handovers handovers, LockOwner me, String view, LockKey key) {
        try {
            asked = handovers.ask(key, me, view, parameter("note"));
            askedId = asked.id();
            message = null;
        } catch (IllegalArgumentException | HandoverRefusedException e) {
            message = e.getMessage();
            failed = true;
        } catch (LockStoreException e) {
            LOG.log(Level.WARNING, "Could not ask for a hand-over", e);
            message = reader.say("store.failed");
            failed = true;
        }
    }

    /** Withdraws this page's open request. */
    void withdraw(Handovers handovers, String ownerId) {
        if (askedId == null) {
            return;
        }
        try {
            asked = handovers.withdraw(askedId, ownerId);
            message = null;
        } catch (HandoverRefusedException e) {
            message = e.getMessage();
            failed = true;
        }
    }

    /** The holder's answer, as the page sent it: request id, hand over or not, reply. */
    void answer(Handovers handovers, String ownerId) {
        long id;
        try {
            id = Long.parseLong(String.valueOf(parameter("request")));
        } catch (NumberFormatException e) {
            message = reader.say("handover.which");
            failed = true;
            return;
        }
        boolean handOver = "true".equals(parameter("handOver"));
        try {
            HandoverRequest r = handovers.answer(id, ownerId, handOver, parameter("reply"));
            message =
                    handOver
                            ? null
                            : reader.say(
                                    r.reply() == null ? "handover.kept" : "handover.kept.reply",
                                    r.askerName());
        } catch (IllegalArgumentException | HandoverRefusedException e) {
            message = e.getMessage();
            failed = true;
        } catch (LockUnavailableException e) {
            message = reader.say("handover.parts", LockSentences.names(e.holders()));
            failed = true;
        } catch (LockStoreException e) {
            LOG.log(Level.WARNING, "Could not answer a hand-over request", e);
            message = reader.say("store.failed");
            failed = true;
        }
    }

    private static String parameter(String name) {
        return FacesContext.getCurrentInstance()
                .getExternalContext()
                .getRequestParameterMap()
                .get(name);
    }

    /**
     * Whether to offer "Ask … to hand over": someone else edits it and this page has no open
     * request.
     */
    public boolean isMayAsk() {
        return askable != null && (asked == null || !asked.isOpen());
    }

    /** Whom to ask. */
    public String getHolderName() {
        return askable == null ? "" : askable.displayName();
    }

    /** Where this page's request stands, for its asker; empty before it asked. */
    public String getStatus() {
        if (asked == null) {
            return "";
        }
        String holder = asked.holderName();
        String reply = asked.reply() == null || asked.reply().isBlank() ? null : asked.reply();
        return switch (asked.state()) {
            case OPEN -> reader.say("asked.open", holder, reader.clockSeconds(asked.expiresAt()));
            case HANDED_OVER -> reader.say("asked.handedOver", holder);
            case DECLINED ->
                    reply == null
                            ? reader.say("asked.declined", holder)
                            : reader.say("asked.declined.reply", holder, reply);
            case TIMED_OUT -> reader.say("asked.timedOut", holder);
            case WITHDRAWN -> reader.say("asked.withdrawn", holder);
            case ENDED -> reader.say("asked.ended", holder);
        };
    }

    public boolean isAskedOpen() {
        return asked != null && asked.isOpen();
    }

    /** The oldest request waiting for this page's answer, or null. */
    public HandoverRequest getFirst() {
        return toMe.isEmpty() ? null : toMe.get(0);
    }

    /** The request waiting for this page's answer, as its holder reads it; empty when none. */
    public String getRequestText() {
        HandoverRequest first = getFirst();
        if (first == null) {
            return "";
        }
        return first.note() == null
                ? reader.say("handover.request", first.askerName(), title)
                : reader.say("handover.request.note", first.askerName(), title, first.note());
    }

    /** Its id (Faces 4's EL reads no record components), or empty. */
    public String getFirstId() {
        return toMe.isEmpty() ? "" : String.valueOf(toMe.get(0).id());
    }

    /** How many more wait behind it. */
    public int getMore() {
        return Math.max(0, toMe.size() - 1);
    }

    /** Until when the first request waits, as the page says it. */
    public String getFirstUntil() {
        return toMe.isEmpty() ? "" : reader.clockSeconds(toMe.get(0).expiresAt());
    }

    /** The outcome of the page's last step, when it has something to say. */
    public String getMessage() {
        return message;
    }

    public boolean isFailed() {
        return failed;
    }
}
