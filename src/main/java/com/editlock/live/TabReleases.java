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
        this.pool.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.delayMillis = delayMillis;
    }

    TabReleases(ThreadFactory threads, long delayMillis) {
        this(threads, delayMillis, THREADS);
    }

    @Override
    public Runnable schedule(Runnable task) {
        ScheduledFuture<?> pending = pool.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
        return () -> pending.cancel(false);
    }

    /**
     * Stops: pending graces are dropped (the node's stop releases what it holds, and a lease ends
     * the rest); releases under way finish, for {@code waitMillis} at most.
     */
    void stop(long waitMillis) throws InterruptedException {
        pool.shutdown();
        pool.awaitTermination(waitMillis, TimeUnit.MILLISECONDS);
    }
}
