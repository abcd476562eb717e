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
                                                        Settings.LOGIN_FAILURES_PER_ADDRESS, "50",
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
    void aGuesserAtOneAccountWaitsLongerAfterEachFailureUpToTheMaximum() {
        throttle.failed("sara", "10.0.0.1");
        throttle.failed("sara", "10.0.0.1");
        assertThat(throttle.wait("sara", "10.0.0.1")).isZero();
        throttle.failed("sara", "10.0.0.1");
        assertThat(throttle.wait("sara", "10.0.0.1")).isEqualTo(Duration.ofSeconds(1));
        assertThat(throttle.wait("omar", "10.0.0.1"))
                .as("other accounts from that address are not affected")
                .isZero();
        for (int i = 0; i < 10; i++) {
            throttle.failed("sara", "10.0.0.1");
        }
        assertThat(throttle.wait("sara", "10.0.0.1"))
                .as("never longer than the maximum")
                .isEqualTo(Duration.ofSeconds(5).plusSeconds(3));
        now = now.plusSeconds(8);
        assertThat(throttle.wait("sara", "10.0.0.1")).as("one more try after the wait").isZero();
        throttle.succeeded("sara", "10.0.0.1");
        throttle.failed("sara", "10.0.0.1");
        assertThat(throttle.wait("sara", "10.0.0.1"))
                .as("a success starts the count again")
                .isZero();
    }

    @Test
    void theRealPersonFromAnotherAddressIsNeverKeptOutByOneGuesser() {
        for (int i = 0; i < 100; i++) {
            throttle.failed("sara", "127.0.0.2");
            assertThat(throttle.wait("sara", "127.0.0.3")).as("after %d failures", i + 1).isZero();
            assertThat(throttle.wait("sara", "127.0.0.2").isZero()).isEqualTo(i < 2);
            now = now.plusSeconds(10);
        }
    }

    @Test
    void aNameGuessedFromManyAddressesSlowsStrangersButNotAddressesItLoggedInFrom() {
        throttle.failed("sara", "10.0.0.200");
        throttle.succeeded("sara", "10.0.0.200");
        for (int i = 0; i < LoginThrottle.SPREAD_ADDRESSES - 2; i++) {
            throttle.failed("sara", "10.9.0." + i);
        }
        assertThat(throttle.wait("sara", "10.0.0.77"))
                .as("nine machines are not a spread (Sara's own failure counts)")
                .isZero();
        throttle.failed("sara", "10.9.1.1");
        assertThat(throttle.wait("sara", "10.0.0.77"))
                .as("ten are: a stranger waits")
                .isEqualTo(Duration.ofSeconds(8));
        assertThat(throttle.wait("sara", "10.0.0.200"))
                .as("where Sara logged in before, she does not")
                .isZero();
        assertThat(throttle.wait("omar", "10.0.0.77")).as("other names are not affected").isZero();
    }

    @Test
    void oneAddressTryingManyAccountsIsSlowedToo() {
        for (int i = 0; i < 50; i++) {
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

    @Test
    void whateverIsSentTheTableStaysBounded() {
        String huge = "x".repeat(1_000_000);
        for (int i = 0; i < 1_000; i++) {
            throttle.failed(huge + i, "10.1.0.1");
        }
        assertThat(throttle.entries()).as("impossible names count as one").isLessThanOrEqualTo(3);
        for (int i = 0; i < 3 * LoginThrottle.MAX_ENTRIES; i++) {
            throttle.failed(
                    "user" + i, "10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255));
        }
        assertThat(throttle.entries()).isLessThanOrEqualTo(2 * LoginThrottle.MAX_ENTRIES);
        throttle.failed("sara", "10.200.0.1");
        throttle.failed("sara", "10.200.0.1");
        throttle.failed("sara", "10.200.0.1");
        assertThat(throttle.wait("sara", "10.200.0.1"))
                .as("the newest failures are kept")
                .isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void anIpv6ClientIsCountedByItsNetwork() {
        assertThat(LoginThrottle.address("2001:db8:1:2:aaaa::1"))
                .isEqualTo(LoginThrottle.address("2001:db8:1:2:bbbb::9"))
                .isNotEqualTo(LoginThrottle.address("2001:db8:1:3::1"));
        assertThat(LoginThrottle.address("127.0.0.2")).isEqualTo("127.0.0.2");
        assertThat(LoginThrottle.address("x".repeat(100))).isEqualTo("?");
    }

    @Test
    void badApiTokensHoldBackOnlyFurtherBadTokensFromTheirAddress() {
        for (int i = 0; i < LoginThrottle.TOKEN_FAILURES_PER_ADDRESS - 1; i++) {
            throttle.tokenFailed("10.0.0.7");
        }
        assertThat(throttle.tokenWait("10.0.0.7")).isZero();
        throttle.tokenFailed("10.0.0.7");
        assertThat(throttle.tokenWait("10.0.0.7"))
                .as("past the per-address allowance the address waits")
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(throttle.wait("sara", "10.0.0.7"))
                .as("not its password logins: a colleague at that address logs in")
                .isZero();
        assertThat(throttle.tokenWait("10.0.0.8")).as("another address is not affected").isZero();
    }

    /** Two nodes' throttles sharing one event table, as two nodes share {@code login_event}. */
    @Test
    void aGuesserSpreadOverTwoNodesGetsTheAllowanceOfOne() {
        SharedEvents shared = new SharedEvents();
        throttle.events = shared;
        LoginThrottle other = new LoginThrottle();
        other.settings = throttle.settings;
        other.clock = throttle.clock;
        other.events = shared;
        throttle.failed("sara", "10.0.0.1");
        other.failed("sara", "10.0.0.1");
        assertThat(throttle.wait("sara", "10.0.0.1")).isZero();
        throttle.failed("sara", "10.0.0.1"); // the third, on the first node
        assertThat(other.wait("sara", "10.0.0.1"))
                .as("the second node counts the first node's failures")
                .isEqualTo(Duration.ofSeconds(1));
        other.succeeded("sara", "10.0.0.1");
        assertThat(throttle.wait("sara", "10.0.0.1"))
                .as("a success on one node clears the count on both")
                .isZero();
    }

    @Test
    void aNodeThatCannotReachTheSharedCountsCountsAlone() {
        throttle.events =
                new LoginEvents() {
                    @Override
                    public long append(Kind kind, String login, String address, Instant at)
                            throws java.sql.SQLException {
                        throw new java.sql.SQLException("the database is down");
                    }

                    @Override
                    public java.util.List<Event> since(long id) throws java.sql.SQLException {
                        throw new java.sql.SQLException("the database is down");
                    }
                };
        for (int i = 0; i < 3; i++) {
            throttle.failed("sara", "10.0.0.1");
        }
        assertThat(throttle.wait("sara", "10.0.0.1")).isEqualTo(Duration.ofSeconds(1));
    }

    /** {@code login_event} in memory. */
    private static final class SharedEvents extends LoginEvents {
        private final java.util.List<Event> rows = new java.util.ArrayList<>();

        @Override
        public synchronized long append(Kind kind, String login, String address, Instant at) {
            long id = rows.size() + 1;
            rows.add(new Event(id, kind, login, address, at));
            return id;
        }

        @Override
        public synchronized java.util.List<Event> since(long id) {
            return java.util.List.copyOf(
                    rows.subList((int) Math.min(id, rows.size()), rows.size()));
        }
    }
}
