package com.editlock.live;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The threads that end the grace of closed tabs and release what they held: {@value #THREADS} of
 * this node's own, not the container's default scheduler.
 *
 * <p>Why its own: Payara's default managed scheduled executor has a core pool of 0, which a
 * scheduled pool turns into a single thread, shared with every other timer of the application (the
 * sweep of idle sessions, which ends each one with its locks). Each release is a transaction; one
 * that waits (a row a save still holds, a slow moment of the database) held up every tab closed
 * after it, and the long reliability run saw three tabs closed within one second keep their locks
 * until their leases ran out. Here a waiting release holds up only its own thread, and the others
 * keep releasing on time; a task that fails is logged by the caller and never stops a thread.
 */
final class TabReleases implements TabSockets.Grace {

    /** How many releases may wait on the database at once before the next one has to queue. */
    static final int THREADS = 4;

    private final ScheduledThreadPoolExecutor pool;
    private final long delayMillis;

    /**
     * Runs each task {@code delayMillis} after it is scheduled, on threads from {@code threads}.
     */
    TabReleases(ThreadFactory threads, long delayMillis, int size) {
        this.pool = new ScheduledThreadPoolExecutor(size, threads);
        this.pool.setRemoveOnCancelPolicy(true); // a tab that came back leaves no timer behind
        this.delayMillis = delayMillis;
    }

    TabReleases(ThreadFactory threads, long delayMillis) {
        this(threads, delayMillis, THREADS);
    }

    @Override
    public Runnable schedule(Runnable task) {
        try {
            ScheduledFuture<?> pending = pool.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
            return () -> pending.cancel(false);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return () -> {}; // stopping: a tab lost from now on is not this node's to end
        }
    }

    /** Whether {@link #finish} has begun. */
    boolean stopping() {
        return pool.isShutdown();
    }

    /**
     * Stops, after the graces that were already running end as they would have: a tab its user
     * closed in this node's last seconds is released when its grace is over (and not a lease later,
     * as before: with the data grid a stopping node frees nothing of its sessions). A tab lost from
     * now on — its stream cut by this stop, to reconnect at another node — is no longer this node's
     * to end. Waits for {@code waitMillis} beyond the grace at most.
     */
    void finish(long waitMillis) throws InterruptedException {
        finishing();
        pool.awaitTermination(delayMillis + waitMillis, TimeUnit.MILLISECONDS);
    }

    /** {@link #finish} without the wait: no grace begins from now on, those running go on. */
    void finishing() {
        pool.setExecuteExistingDelayedTasksAfterShutdownPolicy(true);
        pool.shutdown();
    }
}
