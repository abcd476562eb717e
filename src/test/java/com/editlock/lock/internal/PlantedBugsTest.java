package com.editlock.lock.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The torture's checker must find each planted bug on its own: the torture's short form runs
 * against a copy of the store with one bug in its SQL, and the run must report at least one
 * violation. The same run against the store as it is reports none ({@link LockStoreTortureTest}). A
 * bug the checker misses is a hole in the proof.
 */
class PlantedBugsTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(PlantedBug.class)
    void theTorturesCheckerReports(PlantedBug bug) throws Exception {
        if (bug.race != null) {
            List<String> found =
                    bug.race.violations(LockStore.shared().withStatements(bug.rewrite()));
            System.out.printf("%s (%s), forced by %s: %s%n", bug, bug.description, bug.race, found);
            assertThat(found)
                    .as(
                            "violations found with \"%s\" planted and %s forced",
                            bug.description, bug.race)
                    .anyMatch(v -> v.contains(bug.caughtBy));
            return;
        }
        long seed = Long.getLong("torture.seed", System.currentTimeMillis());
        // Five hot records make races likely; but there a lapsed lock is cleaned up by the next
        // grant in its record
        // within milliseconds. A save on a lapsed lease shows where records are quieter and a
        // lapsed lock waits for
        // the sweep, as most do in production.
        int aggregates =
                bug == PlantedBug.SAVE_ON_LAPSED_LEASE || bug == PlantedBug.SWEEP_SKIPS_READ_LOCKS
                        ? 40
                        : 5;
        LockTorture.Plan plan =
                new LockTorture.Plan(
                        16,
                        aggregates,
                        8_000,
                        Duration.ofSeconds(12),
                        Duration.ofMillis(200),
                        seed);

        LockTorture.Result result =
                new LockTorture(LockStore.shared().withStatements(bug.rewrite()), plan).run();

        java.util.Map<String, Long> kinds =
                result.report().violations().stream()
                        .collect(
                                java.util.stream.Collectors.groupingBy(
                                        v ->
                                                v.replaceAll("[0-9T:.\\-]+Z?", "#")
                                                        .replaceAll("[0-9a-f#]{8,}", "#"),
                                        java.util.TreeMap::new,
                                        java.util.stream.Collectors.counting()));
        System.out.printf(
                "%s (%s): %d violations%n",
                bug, bug.description, result.report().violations().size());
        kinds.forEach((kind, n) -> System.out.printf("    %5d × %s%n", n, kind));
        assertThat(result.report().violations())
                .as(
                        "violations found by the checker with \"%s\" planted (seed %d); the run: %s",
                        bug.description, seed, LockTorture.describe(plan, result))
                .anyMatch(v -> v.contains(bug.caughtBy));
    }

    /**
     * Each forced interleaving, on the store as it is, is judged clean: the races alone are no bug.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(ForcedRace.class)
    void eachForcedRaceOnTheStoreAsItIsIsClean(ForcedRace race) throws Exception {
        assertThat(race.violations(LockStore.shared())).isEmpty();
    }
}
