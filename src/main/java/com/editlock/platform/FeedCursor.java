package com.editlock.platform;

import java.util.TreeSet;

/**
 * Where a feed stands in a table it reads by id (the lock history, the presence changes). Event ids
 * come from a sequence, so they are handed out in order but may become visible out of order: a
 * transaction that took id 10 can commit after the one that took id 11. A reader that simply
 * remembered "the highest id seen" would skip 10 for ever. The cursor remembers the highest id
 * below which everything was seen ({@link #floor()}) and the ids seen above it; a missing id holds
 * the floor back until it shows up, or until it has been missing for {@code patienceMillis} (a
 * rolled-back transaction never fills its id).
 */
public final class FeedCursor {

    private final long patienceMillis;
    private long floor;
    private final TreeSet<Long> seenAbove = new TreeSet<>();
    private long gapSince = -1;

    public FeedCursor(long start, long patienceMillis) {
        this.floor = start;
        this.patienceMillis = patienceMillis;
    }

    /** Read everything after this id. */
    public long floor() {
        return floor;
    }

    /** Whether {@code id} is new; remembers it. */
    public boolean accept(long id) {
        if (id <= floor || !seenAbove.add(id)) {
            return false;
        }
        return true;
    }

    /**
     * After a read at {@code nowMillis}: moves the floor up over what was seen and over gaps it
     * gave up on.
     */
    public void advance(long nowMillis) {
        while (!seenAbove.isEmpty()) {
            if (seenAbove.first() == floor + 1) {
                floor = seenAbove.pollFirst();
                gapSince = -1;
            } else if (gapSince < 0) {
                gapSince = nowMillis;
                return;
            } else if (nowMillis - gapSince >= patienceMillis) {
                floor++; // give up on this id
                gapSince = nowMillis;
            } else {
                return;
            }
        }
        gapSince = -1;
    }
}
