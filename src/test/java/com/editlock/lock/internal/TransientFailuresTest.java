package com.editlock.lock.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A deadlock or serialization victim is run again, a bounded number of times; any other failure at
 * once.
 */
class TransientFailuresTest {

    private final AtomicInteger calls = new AtomicInteger();

    @Test
    void aVictimTwiceIsRunAThirdTimeAndItsResultReturned() throws Exception {
        assertThat(
                        TransientFailures.<String>retry(
                                () -> {
                                    if (calls.incrementAndGet() < 3) {
                                        throw new IllegalStateException(
                                                "wrapped",
                                                new SQLException("deadlock detected", "40P01"));
                                    }
                                    return "saved";
                                }))
                .isEqualTo("saved");
        assertThat(calls).hasValue(3);
    }

    @Test
    void aVictimEveryTimeIsTriedExactlyAttemptsTimesAndTheLastFailureRethrown() {
        assertThatThrownBy(
                        () ->
                                TransientFailures.retry(
                                        () -> {
                                            throw new SQLException(
                                                    "could not serialize, attempt "
                                                            + calls.incrementAndGet(),
                                                    "40001");
                                        }))
                .hasMessage("could not serialize, attempt " + TransientFailures.ATTEMPTS);
        assertThat(calls).hasValue(TransientFailures.ATTEMPTS);
    }

    @Test
    void anyOtherFailureIsNotRunAgain() {
        assertThatThrownBy(
                        () ->
                                TransientFailures.retry(
                                        () -> {
                                            calls.incrementAndGet();
                                            throw new SQLException("unique violation", "23505");
                                        }))
                .isInstanceOf(SQLException.class);
        assertThat(calls).hasValue(1);
    }
}
