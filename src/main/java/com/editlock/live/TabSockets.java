package com.editlock.live;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The open sockets of each tab, and the release of a tab that stayed away past the grace. Plain
 * logic, so that each race (a close racing a reconnect, a late grace timer, a polite leave during
 * the grace) can be forced in a test.
 *
 * <p>Every event of one tab runs under that tab's monitor and moves its generation on; a grace
 * timer carries the generation it was started in and does nothing if anything happened to the tab
 * since. So a tab is released only if its last socket closed, no socket opened since, and the grace
 * ran out.
 */
final class TabSockets {

    /** Runs {@code task} after the grace; returns a handle that cancels it. */
    interface Grace {
        Runnable schedule(Runnable task);
    }

    private static final class Tab {
        int open;
        long generation;
        boolean released;
        Runnable cancelPending = () -> {};
    }

    private final Map<String, Tab> tabs = new ConcurrentHashMap<>();
    private final Grace grace;
    private final Consumer<String> release;

    /**
     * {@code release} is called with the tab's token, under the tab's monitor, at most once per
     * absence.
     */
    TabSockets(Grace grace, Consumer<String> release) {
        this.grace = grace;
        this.release = release;
    }

    /**
     * A socket of tab {@code token} opened. Returns whether the tab comes back after its locks were
     * released (its page should look again and tell its user).
     */
    boolean opened(String token) {
        Tab tab = tabs.computeIfAbsent(token, t -> new Tab());
        synchronized (tab) {
            tab.open++;
            tab.generation++;
            tab.cancelPending.run();
            boolean cameBack = tab.released;
            tab.released = false;
            return cameBack;
        }
    }

    /** A socket of tab {@code token} closed: when it was the last, the grace starts. */
    void closed(String token) {
        Tab tab = tabs.get(token);
        if (tab == null) {
            return;
        }
        synchronized (tab) {
            tab.open = Math.max(0, tab.open - 1);
            if (tab.open > 0) {
                return;
            }
            long generation = ++tab.generation;
            tab.cancelPending.run();
            tab.cancelPending = grace.schedule(() -> graceOver(token, tab, generation));
        }
    }

    /** The user left the page: release now, without a grace. */
    void left(String token) {
        Tab tab = tabs.computeIfAbsent(token, t -> new Tab());
        synchronized (tab) {
            tab.generation++;
            tab.cancelPending.run();
            releaseUnderMonitor(token, tab);
        }
    }

    /**
     * The page's view ended: forget the tab, cancelling a pending release (the view released its
     * own locks).
     */
    void forget(String token) {
        Tab tab = tabs.remove(token);
        if (tab != null) {
            synchronized (tab) {
                tab.generation++;
                tab.cancelPending.run();
            }
        }
    }

    private void graceOver(String token, Tab tab, long generation) {
        synchronized (tab) {
            if (tab.generation != generation || tab.open > 0 || tabs.get(token) != tab) {
                return; // the tab came back, left politely, or was forgotten meanwhile
            }
            releaseUnderMonitor(token, tab);
        }
    }

    private void releaseUnderMonitor(String token, Tab tab) {
        tab.cancelPending = () -> {};
        if (!tab.released) {
            tab.released = true;
            release.accept(token);
        }
    }
}
