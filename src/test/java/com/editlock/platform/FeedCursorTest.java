package com.editlock.platform;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The feed's cursor: ids that become visible out of order are neither skipped nor delivered twice.
 */
class FeedCursorTest {

    @Test
    void anIdThatCommitsLateIsStillDelivered() {
        FeedCursor cursor = new FeedCursor(10, 5_000);
        assertThat(cursor.accept(12))
                .isTrue(); // 11 is not visible yet: its transaction commits later
        cursor.advance(0);
        assertThat(cursor.floor()).as("held below the missing id").isEqualTo(10);

        assertThat(cursor.accept(12)).as("not twice").isFalse();
        assertThat(cursor.accept(11)).as("the late one").isTrue();
        cursor.advance(100);
        assertThat(cursor.floor()).isEqualTo(12);
    }

    @Test
    void anIdThatNeverCommitsHoldsTheFloorOnlyForAWhile() {
        FeedCursor cursor = new FeedCursor(10, 5_000);
        cursor.accept(12);
        cursor.advance(0);
        cursor.advance(4_999);
        assertThat(cursor.floor()).isEqualTo(10);

        cursor.advance(5_000);
        assertThat(cursor.floor()).as("given up on 11, past 12").isEqualTo(12);
        assertThat(cursor.accept(11))
                .as("too late now: never delivered twice or out of the blue")
                .isFalse();
    }

    @Test
    void contiguousIdsMoveTheFloorAtOnce() {
        FeedCursor cursor = new FeedCursor(0, 5_000);
        for (long id = 1; id <= 3; id++) {
            assertThat(cursor.accept(id)).isTrue();
        }
        cursor.advance(0);
        assertThat(cursor.floor()).isEqualTo(3);
    }

    @Test
    void theIdAtTheFloorIsOldNewsAndAGapIsWaitedOnFromWhenItWasFirstSeen() {
        FeedCursor cursor = new FeedCursor(10, 5_000);
        assertThat(cursor.accept(10)).as("the floor itself was read before").isFalse();
        cursor.accept(12);
        cursor.advance(100_000); // the gap at 11 is first seen now
        cursor.advance(104_999);
        assertThat(cursor.floor())
                .as("patience counts from when the gap was seen, not from zero")
                .isEqualTo(10);
        cursor.advance(105_000);
        assertThat(cursor.floor()).isEqualTo(12);
    }
}
