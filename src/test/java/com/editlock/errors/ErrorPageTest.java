package com.editlock.errors;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class ErrorPageTest {

    @Test
    void aClosedClientConnectionAnywhereInTheCauseChainGetsNoAnswer() {
        assertThat(
                        ErrorPage.clientGone(
                                new RuntimeException(new IOException("Connection is closed"))))
                .isTrue();
        assertThat(ErrorPage.clientGone(new IOException("Broken pipe"))).isTrue();
    }

    @Test
    void aFailureInsideTheContainerIsAnsweredAndLoggedLikeAnyOther() {
        NullPointerException buffer = new NullPointerException("grizzlyOutputBuffer is null");
        buffer.setStackTrace(
                new StackTraceElement[] {
                    new StackTraceElement(
                            "org.glassfish.grizzly.http.io.OutputBuffer", "reset", null, 1)
                });
        assertThat(ErrorPage.clientGone(buffer))
                .as("no upgrade is left that could hand the answer to another client")
                .isFalse();
    }

    @Test
    void anyOtherFailureIsAnswered() {
        assertThat(ErrorPage.clientGone(new IOException("Disk full"))).isFalse();
        assertThat(ErrorPage.clientGone(new IllegalStateException("boom"))).isFalse();
        assertThat(ErrorPage.clientGone(null)).isFalse();
    }
}
