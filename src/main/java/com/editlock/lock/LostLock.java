package com.editlock.lock;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * Why a save found no live lock to write under: the structured cause behind {@link
 * LockNotHeldException}, and the one place where it becomes the sentence that screens and the API
 * show.
 *
 * @param key what the save needed
 * @param ending how the caller's lock ended ({@code null}: never granted, or no history of it)
 * @param actor who ended it (the admin's name), for a force release
 * @param reason why, for a force release
 * @param readOnly the caller still holds it, but only as a READ lock, which never writes
 * @param holderNow who holds {@code key} now, if anyone
 */
public record LostLock(
        LockKey key,
        LockEventType ending,
        String actor,
        String reason,
        boolean readOnly,
        Optional<Lock> holderNow) {

    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneId.systemDefault());

    /** The caller holds {@code key} for reading only. */
    public static LostLock readOnly(LockKey key) {
        return new LostLock(key, null, null, null, true, Optional.empty());
    }

    /** A sentence that says what happened, who holds the record now, and that nothing was saved. */
    public String sentence() {
        return whatHappened() + " Nothing was saved.";
    }

    /** What happened and who holds the record now, in one sentence. */
    public String story() {
        return whatHappened();
    }

    /**
     * For an open page that just lost its lock: what happened, and that the typed input stays but
     * cannot be saved.
     */
    public String notice() {
        return whatHappened()
                + " What you typed stays on this page and is kept as your draft: it is offered when"
                + " you open the record again.";
    }

    private String whatHappened() {
        if (readOnly) {
            return "You hold "
                    + key
                    + " for reading only (a READ lock), which never saves. Open it for editing "
                    + "(a WRITE lock) first.";
        }
        String what =
                ending == null
                        ? "You hold no lock on " + key
                        : switch (ending) {
                            case FORCE_RELEASED ->
                                    actor + " released your lock: " + reason + " (" + key + ")";
                            case TAKEN_OVER ->
                                    actor + " took over your lock: " + reason + " (" + key + ")";
                            case HANDED_OVER ->
                                    "You handed your lock over to " + actor + " (" + key + ")";
                            case EXPIRED ->
                                    "Your lock on "
                                            + key
                                            + " expired because no heartbeat renewed it";
                            case SESSION_ENDED ->
                                    "Your lock on " + key + " ended with your session";
                            case VIEW_CLOSED ->
                                    "Your lock on " + key + " ended when its tab closed";
                            default -> "Your lock on " + key + " was released";
                        };
        String now =
                holderNow
                        .map(
                                l ->
                                        l.displayName()
                                                + " has been editing it since "
                                                + CLOCK.format(l.acquiredAt()))
                        .orElse("nobody holds it now");
        return what + "; " + now + ".";
    }
}
