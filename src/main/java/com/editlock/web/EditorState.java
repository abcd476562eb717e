package com.editlock.web;

/**
 * Where an editing screen ({@link LockedEditor}) stands; each state decides what the page shows.
 *
 * <pre>
 *   (opens) ──lock taken──▶ EDITING ──Save / Done──▶ LEFT
 *      │                      │  ╲
 *      │                      │   ╲─lock lost while open──▶ LOST
 *      │                      ╰─save refused──▶ SAVE_REFUSED
 *      ├─held by others──▶ HELD_BY_OTHERS ◀──▶ FREE   (read-only, as the holders come and go)
 *      ╰─no such record / refused to open──▶ NOT_FOUND
 * </pre>
 */
enum EditorState {
    /** Nothing to show: the record does not exist, or it could not be opened. */
    NOT_FOUND,
    /** This tab holds the lock; the form is open. */
    EDITING,
    /** Read-only: another session edits the record (or its whole). */
    HELD_BY_OTHERS,
    /** Read-only, and nobody else edits it: the page offers "Edit now". */
    FREE,
    /** A save was refused (the lock was gone, or the record changed): what was typed stays. */
    SAVE_REFUSED,
    /** The lock was taken from this tab while it was open: what was typed stays. */
    LOST,
    /** Saved or done; the lock is released and the page goes on. */
    LEFT;

    /** Whether the form shows: while editing, and after the lock went (to keep what was typed). */
    boolean formShown() {
        return this == EDITING || this == SAVE_REFUSED || this == LOST;
    }

    /** Whether the page lost its lock, by a refused save or while open. */
    boolean refused() {
        return this == SAVE_REFUSED || this == LOST;
    }

    /** Whether the page shows a record read-only and says who is in the way. */
    boolean reading() {
        return this == HELD_BY_OTHERS || this == FREE;
    }
}
