package com.editlock.web;

import java.io.Serializable;

/**
 * Where a paged table stands: which page, how many rows match in all, and the words and buttons
 * around it.
 */
final class Paging implements Serializable {

    private static final long serialVersionUID = 1L;

    private final int size;
    private int page;
    private long total;
    private int shown;

    Paging(int size) {
        this.size = size;
    }

    int offset() {
        return page * size;
    }

    int size() {
        return size;
    }

    /** After a read: what matched in all, and how many rows this page shows. */
    void found(long total, int shown) {
        this.total = total;
        this.shown = shown;
    }

    /**
     * Whether the page is past the end (rows went away meanwhile); if so, moves to the last page.
     */
    boolean pastTheEnd() {
        if (shown == 0 && page > 0 && total > 0) {
            page = (int) ((total - 1) / size);
            return true;
        }
        return false;
    }

    void first() {
        page = 0;
    }

    void next() {
        if (hasNext()) {
            page++;
        }
    }

    void previous() {
        page = Math.max(0, page - 1);
    }

    boolean hasNext() {
        return (page + 1L) * size < total;
    }

    boolean hasPrevious() {
        return page > 0;
    }

    long total() {
        return total;
    }

    /**
     * "51–100 of 5,000" in the reader's language, or the sentence {@code noneKey} when nothing
     * matches.
     */
    String window(Viewpoint reader, String noneKey) {
        return total == 0
                ? reader.say(noneKey)
                : reader.say("paging.window", offset() + 1, offset() + shown, total);
    }
}
