package com.editlock.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The races of one tab's events, each forced in the order that matters: the grace timer runs
 * exactly when the test says, so a close racing a reconnect, a stale timer and a leave during the
 * grace are deterministic.
 */
class TabSocketsTest {

    /** Grace timers that run only when the test runs them; cancelled ones never run. */
    private static final class ManualGrace implements TabSockets.Grace {
        final List<Runnable> pending = new ArrayList<>();

        @Override
        public Runnable schedule(Runnable task) {
            Runnable[] slot = {task};
            pending.add(
                    () -> {
                        if (slot[0] != null) {
                            slot[0].run();
                        }
                    });
            return () -> slot[0] = null;
        }

        void runAll() {
            List<Runnable> due = new ArrayList<>(pending);
            pending.clear();
            due.forEach(Runnable::run);
        }
    }

    private final ManualGrace grace = new ManualGrace();
    private final List<String> released = new ArrayList<>();
    private final TabSockets tabs = new TabSockets(grace, released::add);

    @Test
    void aClosedTabIsReleasedOnlyWhenTheGraceRunsOut() {
        tabs.opened("tab");
        tabs.closed("tab");
        assertThat(released).as("not during the grace").isEmpty();

        grace.runAll();
        assertThat(released).containsExactly("tab");
        grace.runAll();
        assertThat(released).as("once").containsExactly("tab");
    }

    @Test
    void aReloadOrReconnectWithinTheGraceKeepsTheLocks() {
        tabs.opened("tab");
        tabs.closed("tab");
        tabs.opened("tab"); // back within the grace

        grace.runAll();
        assertThat(released).isEmpty();
    }

    @Test
    void aStaleTimerFromAnEarlierCloseDoesNotReleaseATabThatClosedAgainLater() {
        tabs.opened("tab");
        tabs.closed("tab");
        Runnable firstTimer = grace.pending.get(0);
        tabs.opened("tab");
        tabs.closed("tab"); // a second absence: its own grace starts now

        firstTimer.run(); // the first absence's timer fires late (it lost the race with the cancel)
        assertThat(released).as("the stale timer changes nothing").isEmpty();
        grace.pending.get(1).run();
        assertThat(released).containsExactly("tab");
    }

    @Test
    void aTabWithTwoSocketsIsOpenUntilBothClose() {
        tabs.opened("tab");
        tabs.opened("tab"); // the reconnect opened before the old socket's close arrived
        tabs.closed("tab");
        grace.runAll();
        assertThat(released).isEmpty();

        tabs.closed("tab");
        grace.runAll();
        assertThat(released).containsExactly("tab");
    }

    @Test
    void aPoliteLeaveReleasesAtOnceAndTheGraceThatFollowsDoesNothingMore() {
        tabs.opened("tab");
        tabs.left("tab");
        assertThat(released).containsExactly("tab");

        tabs.closed("tab");
        grace.runAll();
        assertThat(released).as("released once").containsExactly("tab");
    }

    @Test
    void aTabThatComesBackAfterItsReleaseIsToldToLookAgain() {
        assertThat(tabs.opened("tab")).isFalse();
        tabs.closed("tab");
        grace.runAll();

        assertThat(tabs.opened("tab")).as("its page must tell its user").isTrue();
        assertThat(tabs.opened("tab")).as("only once").isFalse();
    }

    @Test
    void closingOneTabLeavesTheOtherTabsOfTheSessionAlone() {
        tabs.opened("tab-1");
        tabs.opened("tab-2");
        tabs.closed("tab-2");
        grace.runAll();
        assertThat(released).containsExactly("tab-2");
    }

    @Test
    void aForgottenViewIsNotReleasedByItsPendingGrace() {
        tabs.opened("tab");
        tabs.closed("tab");
        tabs.forget("tab"); // the view ended and released its own locks
        grace.runAll();
        assertThat(released).isEmpty();
    }
}
