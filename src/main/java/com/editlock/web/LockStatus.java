package com.editlock.web;

import com.editlock.configurator.EditVisits;
import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import java.io.Serializable;
import java.util.List;
import java.util.Optional;

/**
 * The sentence an editing screen ({@link LockedEditor}) shows about its lock, and what it remembers
 * to say the next one: who was in the way when it last looked ("Sara has finished"), and which
 * record, to tell how that lock ended.
 */
final class LockStatus implements Serializable {

    private static final long serialVersionUID = 1L;

    private String text;
    private String lastHolders;
    private LockKey lastInTheWay;

    /** Says {@code text}. */
    void say(String text) {
        this.text = text;
    }

    /** Says who is in the way, and remembers them. */
    void heldBy(List<Lock> holders, LockSentences sentences) {
        text = sentences.beingEdited(holders);
        lastHolders = LockSentences.names(holders);
        lastInTheWay = holders.get(0).key();
    }

    /**
     * A read-only page looked: says who is in the way, or, when the record has just become free
     * ({@code wasFree} false) or nothing was said yet, who was and how their lock ended.
     */
    void looked(EditVisits.Look look, boolean wasFree, LockSentences sentences, EditVisits visits) {
        if (!look.free()) {
            heldBy(look.inTheWay(), sentences);
        } else if (text == null || !wasFree) {
            text =
                    sentences.freeNow(
                            lastHolders,
                            lastInTheWay == null
                                    ? Optional.empty()
                                    : visits.lastEnding(lastInTheWay));
        }
    }

    String text() {
        return text;
    }

    /** Who was in the way when the page last looked; null before anyone was. */
    String lastHolders() {
        return lastHolders;
    }
}
