package com.editlock.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The bound on bodies read at once from one address. */
class BodyReadsTest {

    private final BodyReads bodies = new BodyReads();

    @Test
    void anAddressHasAtMostItsBoundOfBodiesUnderWayAndGetsThemBackAsTheyEnd() {
        for (int i = 0; i < BodyReads.MAX_PER_ADDRESS; i++) {
            assertThat(bodies.enter("192.0.2.1")).isTrue();
        }
        assertThat(bodies.enter("192.0.2.1")).as("one more from the same address").isFalse();
        assertThat(bodies.enter("192.0.2.2")).as("another address is not held back").isTrue();
        bodies.leave("192.0.2.1");
        assertThat(bodies.enter("192.0.2.1")).as("a body read frees its place").isTrue();
        for (int i = 0; i < BodyReads.MAX_PER_ADDRESS; i++) {
            bodies.leave("192.0.2.1");
        }
        assertThat(bodies.reading("192.0.2.1")).isZero();
    }

    /** Many threads of one address at the same instant: exactly the bound gets in. */
    @Test
    void aCrowdArrivingAtOnceGetsExactlyTheBound() throws Exception {
        int crowd = 4 * BodyReads.MAX_PER_ADDRESS;
        CyclicBarrier together = new CyclicBarrier(crowd);
        ExecutorService pool = Executors.newFixedThreadPool(crowd);
        try {
            List<Future<Boolean>> entered = new ArrayList<>();
            for (int i = 0; i < crowd; i++) {
                entered.add(
                        pool.submit(
                                () -> {
                                    together.await();
                                    return bodies.enter("192.0.2.9");
                                }));
            }
            int in = 0;
            for (Future<Boolean> f : entered) {
                in += f.get() ? 1 : 0;
            }
            assertThat(in).isEqualTo(BodyReads.MAX_PER_ADDRESS);
            assertThat(bodies.reading("192.0.2.9")).isEqualTo(BodyReads.MAX_PER_ADDRESS);
        } finally {
            pool.shutdownNow();
        }
    }
}
