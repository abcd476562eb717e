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

    @Test
    void aFieldOrNameLongerThanAPageTakesIsTooLongAndTheLongestThatIsTakenIsNot() {
        String longest = "x".repeat(BodyReads.PAGE_FIELD_MAX_CHARS);
        assertThat(BodyReads.tooLong(java.util.Map.of("edit:description", new String[] {longest})))
                .isFalse();
        assertThat(
                        BodyReads.tooLong(
                                java.util.Map.of(
                                        "edit:description", new String[] {"a", longest + "x"})))
                .as("any of a field's values")
                .isTrue();
        assertThat(BodyReads.tooLong(java.util.Map.of(longest + "x", new String[] {""})))
                .as("a name")
                .isTrue();
    }

    /**
     * No field a page offers is refused: every {@code maxlength} on the pages, with its line breaks
     * sent as two characters, fits.
     */
    @Test
    void everyFieldThePagesOfferFitsTwiceOver() throws Exception {
        java.util.regex.Pattern maxlength = java.util.regex.Pattern.compile("maxlength=\"(\\d+)\"");
        int longest = 0;
        try (var files = java.nio.file.Files.walk(java.nio.file.Path.of("src/main/webapp"))) {
            for (java.nio.file.Path page :
                    files.filter(f -> f.toString().endsWith(".xhtml")).toList()) {
                var m = maxlength.matcher(java.nio.file.Files.readString(page));
                while (m.find()) {
                    longest = Math.max(longest, Integer.parseInt(m.group(1)));
                }
            }
        }
        assertThat(longest).as("the description's 2,000 characters").isEqualTo(2000);
        assertThat(BodyReads.PAGE_FIELD_MAX_CHARS).isGreaterThanOrEqualTo(2 * longest);
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
