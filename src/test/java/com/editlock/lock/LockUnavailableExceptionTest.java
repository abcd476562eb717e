package com.editlock.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class LockUnavailableExceptionTest {

    private static Lock heldBy(String name, LockKey key) {
        Instant now = Instant.parse("2026-11-29T10:00:00Z");
        return new Lock(
                key,
                LockKey.configurator(1),
                LockMode.WRITE,
                "owner-" + name,
                null,
                name.toLowerCase(),
                name,
                now,
                now,
                now.plusSeconds(120),
                1);
    }

    @Test
    void namesEveryHolderOnceEvenWhenOneNameContainsAnother() {
        var e =
                new LockUnavailableException(
                        LockKey.configurator(1),
                        List.of(
                                heldBy("Adam", LockKey.itemFilters(1)),
                                heldBy("Ada", LockKey.itemFilters(2)),
                                heldBy("Adam", LockKey.variables(1))));
        assertThat(e).hasMessage("configurator:1 is locked by Adam, Ada.");
        assertThat(e.holder().displayName()).isEqualTo("Adam");
    }
}
