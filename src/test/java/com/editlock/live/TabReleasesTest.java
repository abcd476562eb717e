package com.editlock.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The releases of closed tabs: one that waits on the database holds up no other tab's. The wait is
 * forced (a release blocked on a latch the test holds), so the order does not depend on timing.
 */
class TabReleasesTest {

    private final AtomicReference<Throwable> failed = new AtomicReference<>();
    private final CountDownLatch database = new CountDownLatch(1); // held until the test frees it
    private TabReleases releases;

    @AfterEach
    void stop() throws Exception {
        database.countDown();
        if (releases != null) {
            releases.finish(5000);
        }
        assertThat(failed.get()).as("a release thread failed").isNull();
    }

    /** Tab A's release waits on the database; tab B's is due next. */
    private CountDownLatch aWaitsThenBIsDue(int threads) throws InterruptedException {
        releases = new TabReleases(Executors.defaultThreadFactory(), 10, threads);
        CountDownLatch aWaiting = new CountDownLatch(1);
        CountDownLatch bReleased = new CountDownLatch(1);
        releases.schedule(
                () -> {
                    aWaiting.countDown();
                    try {
                        if (!database.await(30, TimeUnit.SECONDS)) {
                            failed.set(new AssertionError("the database was never freed"));
                        }
                    } catch (InterruptedException e) {
                        failed.set(e);
                    }
                });
        assertThat(aWaiting.await(10, TimeUnit.SECONDS)).as("tab A's release started").isTrue();
        releases.schedule(bReleased::countDown);
        return bReleased;
    }

    @Test
    void aReleaseThatWaitsHoldsUpNoOtherTab() throws Exception {
        CountDownLatch bReleased = aWaitsThenBIsDue(TabReleases.THREADS);
        assertThat(bReleased.await(10, TimeUnit.SECONDS))
                .as("tab B released while tab A's release still waits")
                .isTrue();
        assertThat(database.getCount()).as("A still waits").isEqualTo(1);
    }

    /**
     * The control: on one thread (the container's default scheduler), B's release cannot run while
     * A's waits — the failure the test above catches.
     */
    @Test
    void onOneThreadAWaitingReleaseHoldsUpTheNext() throws Exception {
        CountDownLatch bReleased = aWaitsThenBIsDue(1);
        assertThat(bReleased.await(500, TimeUnit.MILLISECONDS))
                .as("tab B waits behind A")
                .isFalse();
        database.countDown();
        assertThat(bReleased.await(10, TimeUnit.SECONDS)).as("then B is released").isTrue();
    }

    /**
     * A node that stops first ends the graces already running — a tab closed in its last seconds is
     * released on time, not a lease later — and ends no grace that begins with the stop (a stream
     * the stop cuts reconnects elsewhere). The stop waits for the grace, not longer.
     */
    @Test
    void aStopReleasesTheTabsClosedBeforeItWhenTheirGraceEndsAndNoneLostWithIt() throws Exception {
        releases = new TabReleases(Executors.defaultThreadFactory(), 300, 1);
        CountDownLatch closedBefore = new CountDownLatch(1);
        AtomicBoolean lostWithTheStop = new AtomicBoolean();
        AtomicBoolean cameBack = new AtomicBoolean();
        releases.schedule(closedBefore::countDown);
        releases.schedule(() -> cameBack.set(true)).run(); // came back before the stop
        long start = System.nanoTime();
        Thread stopping =
                Thread.ofPlatform()
                        .start(
                                () -> {
                                    try {
                                        releases.finish(5000);
                                    } catch (Throwable t) {
                                        failed.set(t);
                                    }
                                });
        while (stopping.isAlive() && !releases.stopping()) {
            Thread.onSpinWait(); // the stop has begun: what is lost now is not this node's
        }
        Runnable cancel = releases.schedule(() -> lostWithTheStop.set(true));
        stopping.join(10_000);
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(stopping.isAlive()).as("the stop ended").isFalse();
        assertThat(closedBefore.getCount()).as("the tab closed before the stop released").isZero();
        assertThat(lostWithTheStop).as("a tab lost with the stop is not released").isFalse();
        assertThat(cameBack).as("a tab that came back is not released").isFalse();
        assertThat(took).as("the stop waits for the grace only, ms").isLessThan(3_000);
        cancel.run(); // (a no-op, as a tab that comes back calls it)
    }

    @Test
    void aTabThatCameBackIsNotReleased() throws Exception {
        releases = new TabReleases(Executors.defaultThreadFactory(), 50, 1);
        AtomicBoolean cameBackReleased = new AtomicBoolean();
        CountDownLatch laterReleased = new CountDownLatch(1);
        Runnable cancel = releases.schedule(() -> cameBackReleased.set(true));
        cancel.run(); // the tab came back within the grace
        releases.schedule(laterReleased::countDown); // due after it, on the same single thread
        assertThat(laterReleased.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(cameBackReleased).as("the cancelled release never ran").isFalse();
    }
}
