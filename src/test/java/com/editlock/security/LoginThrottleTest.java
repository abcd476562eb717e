package com.editlock.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.platform.Settings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {

    private Instant now = Instant.parse("2026-11-30T10:00:00Z");
    private final LoginThrottle throttle = new LoginThrottle();

    LoginThrottleTest() {
        throttle.settings =
                Settings.from(
                        k ->
                                Optional.ofNullable(
                                        Map.of(
                                                        Settings.LOGIN_FAILURES_PER_ACCOUNT, "3",
                                                        Settings.LOGIN_FAILURES_PER_ADDRESS, "5",
                                                        Settings.LOGIN_MAX_DELAY_SECONDS, "8")
                                                .get(k)));
        throttle.clock =
                new Clock() {
                    @Override
                    public ZoneOffset getZone() {
                        return ZoneOffset.UTC;
                    }

                    @Override
                    public Clock withZone(java.time.ZoneId zone) {
                        return this;
                    }

                    @Override
                    public Instant instant() {
                        return now;
                    }
                };
    }

    @Test
    void anAccountWaitsLongerAfterEachFailureBeyondTheAllowanceUpToTheMaximum() {
        throttle.failed("sara", "10.0.0.1");
        throttle.failed("sara", "10.0.0.2");
        assertThat(throttle.wait("sara", "10.0.0.3")).isZero();
        throttle.failed("sara", "10.0.0.3");
        assertThat(throttle.wait("sara", "10.0.0.9"))
                .as("from any address")
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(throttle.wait("omar", "10.0.0.9"))
                .as("other accounts are not affected")
                .isZero();
        for (int i = 0; i < 10; i++) {
            throttle.failed("sara", "10.0.0." + (10 + i));
        }
        assertThat(throttle.wait("sara", "10.0.0.9"))
                .as("never longer than the maximum")
                .isEqualTo(Duration.ofSeconds(8));
        now = now.plusSeconds(8);
        assertThat(throttle.wait("sara", "10.0.0.9"))
                .as("the real user gets back in soon")
                .isZero();
        throttle.succeeded("sara");
        throttle.failed("sara", "10.0.0.1");
        assertThat(throttle.wait("sara", "10.0.0.1"))
                .as("a success starts the count again")
                .isZero();
    }

    @Test
    void oneAddressTryingManyAccountsIsSlowedToo() {
        for (int i = 0; i < 5; i++) {
            throttle.failed("user" + i, "10.0.0.66");
        }
        assertThat(throttle.wait("someone-else", "10.0.0.66")).isEqualTo(Duration.ofSeconds(1));
        assertThat(throttle.wait("someone-else", "10.0.0.67")).isZero();
    }

    @Test
    void countsAreForgottenAfterAQuietQuarterOfAnHour() {
        throttle.failed("sara", "a");
        throttle.failed("sara", "a");
        now = now.plus(LoginThrottle.FORGET_AFTER).plusSeconds(1);
        throttle.failed("sara", "a");
        assertThat(throttle.wait("sara", "a")).isZero();
    }
}
