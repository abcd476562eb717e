package com.editlock.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class ErrorPageTest {

    @Test
    void aClosedClientConnectionAnywhereInTheCauseChainGetsNoAnswer() {
        assertThat(ErrorPage.clientGone(new RuntimeException(new IOException("Connection is closed")))).isTrue();
        assertThat(ErrorPage.clientGone(new IOException("Broken pipe"))).isTrue();
    }

    @Test
    void aFailureOfTheContainersOwnRequestObjectsGetsNoAnswer() {
        NullPointerException upgrade = new NullPointerException("context is null");
        upgrade.setStackTrace(new StackTraceElement[] {
            new StackTraceElement("org.apache.catalina.connector.Request", "upgrade", "Request.java", 2884),
            new StackTraceElement("org.glassfish.tyrus.servlet.TyrusServletUpgrade", "upgrade", null, 1)});
        assertThat(ErrorPage.clientGone(new RuntimeException(upgrade))).isTrue();
        NullPointerException buffer = new NullPointerException("grizzlyOutputBuffer is null");
        buffer.setStackTrace(new StackTraceElement[] {
            new StackTraceElement("org.glassfish.grizzly.http.io.OutputBuffer", "reset", null, 1)});
        assertThat(ErrorPage.clientGone(buffer)).isTrue();
    }

    @Test
    void anyOtherFailureIsAnswered() {
        assertThat(ErrorPage.clientGone(new IOException("Disk full"))).isFalse();
        assertThat(ErrorPage.clientGone(new IllegalStateException("boom"))).isFalse();
        assertThat(ErrorPage.clientGone(null)).isFalse();
    }
}
