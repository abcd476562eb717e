package com.editlock.it.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Made-up histories for the two-node torture's clients'-side check: clean, then one thing wrong
 * each.
 */
public class GrantCallsTest {

    private static final Instant T = Instant.parse("2026-12-01T10:00:00Z");
    private final Map<String, String> owners = Map.of("1/0", "owner-a", "2/0", "owner-b");
    private final List<GrantCalls.Call> calls =
            List.of(
                    new GrantCalls.Call("1/0", "configurator:1", T, T.plusMillis(10)),
                    new GrantCalls.Call("1/0", null, T.plusMillis(100), T.plusMillis(110)),
                    new GrantCalls.Call(
                            "2/0", "configurator:2", T.plusMillis(200), T.plusMillis(210)));
    private final List<String> violations = new ArrayList<>();

    private static GrantCalls.Row row(String type, String key, String owner, long atMillis) {
        return new GrantCalls.Row(7, type, key, owner, T.plusMillis(atMillis));
    }

    @Test
    public void grantsInsideTheirSessionsCallsAreAllMatched() {
        int matched =
                GrantCalls.judge(
                        List.of(
                                row("ACQUIRED", "configurator:1", "owner-a", 5),
                                row("RENEWED_AFTER_LAPSE", "configurator:1", "owner-a", 105),
                                row("REACQUIRED", "configurator:2", "owner-b", 210)),
                        owners,
                        calls,
                        violations);
        assertThat(violations).isEmpty();
        assertThat(matched).isEqualTo(3);
    }

    @Test
    public void aGrantAfterItsCallWasAnsweredIsReported() {
        GrantCalls.judge(
                List.of(row("ACQUIRED", "configurator:1", "owner-a", 50)),
                owners,
                calls,
                violations);
        assertThat(violations)
                .singleElement()
                .asString()
                .contains("session 1/0, outside every call");
    }

    @Test
    public void aGrantOnAKeyItsSessionNeverAskedForIsReported() {
        GrantCalls.judge(
                List.of(row("ACQUIRED", "configurator:2", "owner-a", 5)),
                owners,
                calls,
                violations);
        assertThat(violations).singleElement().asString().contains("outside every call");
    }

    @Test
    public void aHeartbeatExplainsARevivalButNotAFreshGrant() {
        GrantCalls.judge(
                List.of(row("ACQUIRED", "configurator:1", "owner-a", 105)),
                owners,
                calls,
                violations);
        assertThat(violations).singleElement().asString().contains("outside every call");
    }

    @Test
    public void aGrantToAnotherSessionsCallIsReported() {
        GrantCalls.judge(
                List.of(row("ACQUIRED", "configurator:2", "owner-a", 205)),
                owners,
                calls,
                violations);
        assertThat(violations).singleElement().asString().contains("session 1/0");
    }

    @Test
    public void aGrantForAnOwnerNoClientWasToldOfIsReported() {
        GrantCalls.judge(
                List.of(row("ACQUIRED", "configurator:1", "owner-x", 5)),
                owners,
                calls,
                violations);
        assertThat(violations).singleElement().asString().contains("no client's session");
    }

    @Test
    public void twoSessionsWithOneOwnerAreReported() {
        GrantCalls.judge(List.of(), Map.of("1/0", "owner-a", "2/0", "owner-a"), calls, violations);
        assertThat(violations).singleElement().asString().contains("owner owner-a is both session");
    }
}
