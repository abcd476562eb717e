package com.editlock.lock;

import java.time.Instant;

/**
 * One person's request that the holder of a lock hand it over to them ({@link Handovers}). The
 * owner ids and the asker's tab are for the server only (who may answer, which tab receives the
 * lock); screens and the API show names, the note, the reply and the times.
 *
 * @param holderToken the grant asked for: the request ends when that grant ends any other way
 * @param askerView the asker's tab, which receives the lock ({@code null}: an API client)
 * @param reply the holder's reply when they kept editing, if any
 * @param answeredAt when the request stopped being open
 */
public record HandoverRequest(
        long id,
        LockKey key,
        String holderOwnerId,
        String holderLogin,
        String holderName,
        long holderToken,
        String askerOwnerId,
        String askerLogin,
        String askerName,
        String askerView,
        String note,
        State state,
        String reply,
        Instant askedAt,
        Instant expiresAt,
        Instant answeredAt) {

    /** Where a request stands. */
    public enum State {
        /** Waiting for the holder's answer. */
        OPEN,
        /** The holder handed the lock over; the asker holds it. */
        HANDED_OVER,
        /** The holder kept editing (with an optional reply). */
        DECLINED,
        /** Nobody answered in time; nothing changed. */
        TIMED_OUT,
        /** The asker took it back (or closed the tab that asked). */
        WITHDRAWN,
        /**
         * The holder's lock ended another way first (released, lapsed, taken over, handed to
         * someone else).
         */
        ENDED
    }

    public boolean isOpen() {
        return state == State.OPEN;
    }

    /** A sentence for the holder: what became of a request that is no longer open. */
    public String holderSentence() {
        return switch (state) {
            case OPEN -> askerName + " asks to edit it.";
            case HANDED_OVER -> "You handed it over to " + askerName + ".";
            case DECLINED -> "You kept editing.";
            case TIMED_OUT -> "It timed out before your answer; you kept editing.";
            case WITHDRAWN -> askerName + " withdrew it.";
            case ENDED -> "Your lock ended before an answer.";
        };
    }

    /** A sentence for the asker: where their request stands. */
    public String askerSentence() {
        return switch (state) {
            case OPEN -> "You asked " + holderName + " to hand it over; waiting for an answer.";
            case HANDED_OVER -> holderName + " handed it over to you: you are editing it.";
            case DECLINED ->
                    holderName
                            + " keeps editing"
                            + (reply == null || reply.isBlank() ? "." : ": “" + reply + "”");
            case TIMED_OUT ->
                    holderName + " did not answer in time; nothing changed. You may ask again.";
            case WITHDRAWN -> "You withdrew your request to " + holderName + ".";
            case ENDED -> holderName + "'s lock ended before an answer.";
        };
    }
}
