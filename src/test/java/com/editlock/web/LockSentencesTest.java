package com.editlock.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

class LockSentencesTest {

    private final LockSentences sentences = new LockSentences(ZoneId.of("Europe/Berlin"));

    private static Lock lock(LockKey key, String name, String since, String until) {
        return new Lock(
                key,
                LockKey.configurator(12),
                LockMode.WRITE,
                "owner-" + name,
                null,
                name.toLowerCase(),
                name,
                Instant.parse(since),
                Instant.parse(since),
                Instant.parse(until),
                7);
    }

    @Test
    void saysWhoSinceWhenAndFreeWhenAtTheLatest() {
        var sara =
                lock(
                        LockKey.configurator(12),
                        "Sara",
                        "2026-11-29T09:47:00Z",
                        "2026-11-29T10:17:00Z");
        assertThat(sentences.beingEdited(List.of(sara)))
                .isEqualTo("Being edited by Sara since 10:47 — free at 11:17 at the latest");
    }

    @Test
    void namesEveryHolderOnceAndWaitsForTheLastLease() {
        var sara =
                lock(
                        LockKey.itemFilters(1),
                        "Sara",
                        "2026-11-29T09:47:00Z",
                        "2026-11-29T10:17:00Z");
        var omar =
                lock(
                        LockKey.itemFilters(2),
                        "Omar",
                        "2026-11-29T09:50:00Z",
                        "2026-11-29T10:30:00Z");
        var saraAgain =
                lock(LockKey.variables(12), "Sara", "2026-11-29T09:55:00Z", "2026-11-29T10:20:00Z");
        assertThat(sentences.beingEdited(List.of(sara, omar, saraAgain)))
                .isEqualTo("Being edited by Sara, Omar since 10:47 — free at 11:30 at the latest");
    }

    @Test
    void theListTellsWholeFromPartsAndFree() {
        var whole =
                lock(
                        LockKey.configurator(12),
                        "Sara",
                        "2026-11-29T09:47:00Z",
                        "2026-11-29T10:17:00Z");
        var part =
                lock(
                        LockKey.itemFilters(1),
                        "Omar",
                        "2026-11-29T09:50:00Z",
                        "2026-11-29T10:30:00Z");
        assertThat(sentences.listState(List.of())).isEqualTo("Free");
        assertThat(sentences.listState(List.of(whole)))
                .isEqualTo("Being edited by Sara since 10:47");
        assertThat(sentences.listState(List.of(part)))
                .isEqualTo("Parts being edited by Omar since 10:50");
    }
}
