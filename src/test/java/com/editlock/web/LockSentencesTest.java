package com.editlock.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.lock.Lock;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.LostLock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LockSentencesTest {

    /** A reader in New York who reads English. */
    private final LockSentences sentences =
            new LockSentences(Viewpoint.of(Locale.ENGLISH, ZoneId.of("America/New_York")));

    /** A reader in Berlin who reads German. */
    private final LockSentences german =
            new LockSentences(Viewpoint.of(Locale.GERMAN, ZoneId.of("Europe/Berlin")));

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
                .isEqualTo(
                        "Being edited by Sara since 4:47\u202fAM — free at 5:17\u202fAM at the latest");
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
                .isEqualTo(
                        "Being edited by Sara, Omar since 4:47\u202fAM — free at 5:30\u202fAM at the latest");
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
                .isEqualTo("Being edited by Sara since 4:47\u202fAM");
        assertThat(sentences.listState(List.of(part)))
                .isEqualTo("Parts being edited by Omar since 4:50\u202fAM");
    }

    @Test
    void aGermanReaderInBerlinReadsGermanAndHerOwnClock() {
        var sara =
                lock(
                        LockKey.configurator(12),
                        "Sara",
                        "2026-11-29T09:47:00Z",
                        "2026-11-29T10:17:00Z");
        assertThat(german.beingEdited(List.of(sara)))
                .isEqualTo("Wird seit 10:47 von Sara bearbeitet — spätestens um 11:17 frei");
        assertThat(german.listState(List.of())).isEqualTo("Frei");
    }

    @Test
    void aFreedRecordSaysHowItsLockEndedByCause() {
        assertThat(sentences.freeNow("Sara", LockEventType.RELEASED, null, null))
                .isEqualTo("Sara finished — you can edit it now.");
        assertThat(sentences.freeNow("Sara", LockEventType.VIEW_CLOSED, null, null))
                .isEqualTo("Sara's browser tab closed — you can edit it now.");
        assertThat(sentences.freeNow("Sara", LockEventType.EXPIRED, null, null))
                .isEqualTo("Sara's lock lapsed (no sign for 10 s) — you can edit it now.");
        assertThat(sentences.freeNow("Sara", LockEventType.SESSION_ENDED, null, null))
                .isEqualTo("Sara's session ended — you can edit it now.");
        assertThat(sentences.freeNow("Sara", LockEventType.FORCE_RELEASED, "Ada", "Audit"))
                .isEqualTo("Ada released Sara's lock: Audit — you can edit it now.");
        assertThat(sentences.freeNow(null, null, null, null))
                .isEqualTo("Nobody is editing this now — you can edit it now.");
        assertThat(german.freeNow("Sara", LockEventType.VIEW_CLOSED, null, null))
                .isEqualTo(
                        "Der Browser-Tab von Sara wurde geschlossen — Sie können es jetzt"
                                + " bearbeiten.");
    }

    @Test
    void aLostLockNamesWhoWhyAndTheRecordNeverItsKey() {
        var key = LockKey.configurator(12);
        var omar = lock(key, "Omar", "2026-11-29T09:50:00Z", "2026-11-29T10:30:00Z");
        var forced =
                new LostLock(
                        key,
                        LockEventType.FORCE_RELEASED,
                        "Ada",
                        "Audit",
                        false,
                        Optional.of(omar));
        assertThat(sentences.lost(forced, "Road bike"))
                .startsWith(
                        "Ada released your lock: Audit. Omar has been editing it since 4:50\u202fAM.")
                .doesNotContain("configurator:12");
        var none = new LostLock(key, null, null, null, false, Optional.empty());
        assertThat(sentences.refusedSave(none, "Road bike"))
                .isEqualTo(
                        "You hold no lock on “Road bike”. Nobody holds it now. Nothing was saved.");
    }
}
