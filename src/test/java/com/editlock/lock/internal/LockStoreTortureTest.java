package com.editlock.lock.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The short form of {@link LockTorture}: 16 clients on 50 keys in 5 aggregates for a few thousand
 * operations, with 200 ms leases that lapse mid-run. The long form is {@code mvn -Ptorture}.
 */
class LockStoreTortureTest {

    @Test
    void sixteenClientsNeverSeeTwoWritersASaveOnADeadTokenOrAnUnauditedRelease() throws Exception {
        long seed = Long.getLong("torture.seed", System.currentTimeMillis());
        LockTorture.Plan plan =
                new LockTorture.Plan(
                        16, 5, 20_000, Duration.ofSeconds(25), Duration.ofMillis(200), seed);

        LockTorture.Result result = new LockTorture(LockStore.shared(), plan).run();
        System.out.println(LockTorture.describe(plan, result));

        assertThat(result.report().violations()).as("violations (seed %d)", seed).isEmpty();
        assertThat(result.failures()).as("unexpected failures (seed %d)", seed).isEmpty();
        assertThat(result.counts().get(LockTorture.Op.SAVE_ACCEPTED))
                .as("saves went through")
                .isPositive();
        assertThat(result.counts().get(LockTorture.Op.REFUSED))
                .as("clients contended")
                .isPositive();
        assertThat(result.report().expired()).as("leases lapsed mid-run").isPositive();
        assertThat(result.counts().get(LockTorture.Op.TOOK_OVER))
                .as("locks taken over from their holders mid-run")
                .isPositive();
        assertThat(result.counts().get(LockTorture.Op.HANDED_OVER))
                .as("locks handed over on request mid-run")
                .isPositive();
        assertThat(result.counts().get(LockTorture.Op.BULK_RENEWED))
                .as("leases renewed in the node's bulk rounds")
                .isPositive();
    }
}
