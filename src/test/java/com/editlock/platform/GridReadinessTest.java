package com.editlock.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.OptionalInt;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

/**
 * A node that joins a grid is kept out of the proxy until the grid has placed its copies, and is
 * never taken out again by the grid moving copies later.
 */
class GridReadinessTest {

    /** A grid whose members and safety the test sets. */
    private static final class Grid extends DataGrid {
        OptionalInt members = OptionalInt.of(2);
        boolean placed;

        @Override
        public OptionalInt members() {
            return members;
        }

        @Override
        public boolean copiesPlaced() {
            return placed;
        }
    }

    /**
     * The container provides the health responses' builder; outside it, a plain one (the health
     * API's own response class, built as the container's builder would).
     */
    @org.junit.jupiter.api.BeforeAll
    static void responses() {
        HealthCheckResponse.setResponseProvider(
                () ->
                        new org.eclipse.microprofile.health.HealthCheckResponseBuilder() {
                            private String name;
                            private HealthCheckResponse.Status status =
                                    HealthCheckResponse.Status.UP;
                            private final java.util.Map<String, Object> data =
                                    new java.util.LinkedHashMap<>();

                            @Override
                            public org.eclipse.microprofile.health.HealthCheckResponseBuilder name(
                                    String name) {
                                this.name = name;
                                return this;
                            }

                            @Override
                            public org.eclipse.microprofile.health.HealthCheckResponseBuilder
                                    withData(String key, String value) {
                                data.put(key, value);
                                return this;
                            }

                            @Override
                            public org.eclipse.microprofile.health.HealthCheckResponseBuilder
                                    withData(String key, long value) {
                                data.put(key, value);
                                return this;
                            }

                            @Override
                            public org.eclipse.microprofile.health.HealthCheckResponseBuilder
                                    withData(String key, boolean value) {
                                data.put(key, value);
                                return this;
                            }

                            @Override
                            public org.eclipse.microprofile.health.HealthCheckResponseBuilder up() {
                                return status(true);
                            }

                            @Override
                            public org.eclipse.microprofile.health.HealthCheckResponseBuilder
                                    down() {
                                return status(false);
                            }

                            @Override
                            public org.eclipse.microprofile.health.HealthCheckResponseBuilder
                                    status(boolean up) {
                                status =
                                        up
                                                ? HealthCheckResponse.Status.UP
                                                : HealthCheckResponse.Status.DOWN;
                                return this;
                            }

                            @Override
                            public HealthCheckResponse build() {
                                return new HealthCheckResponse(
                                        name, status, java.util.Optional.of(Map.copyOf(data)));
                            }
                        });
    }

    private final Grid grid = new Grid();
    private final GridReadiness check = new GridReadiness();

    {
        check.grid = grid;
    }

    @Test
    void aJoiningNodeIsNotReadyUntilItsCopiesArePlacedAndThenStaysReady() {
        HealthCheckResponse joining = check.call();
        assertThat(joining.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(joining.getName()).isEqualTo(GridReadiness.NAME);
        assertThat(joining.getData().orElseThrow()).containsEntry("copiesPlaced", false);

        grid.placed = true;
        assertThat(check.call().getStatus()).isEqualTo(HealthCheckResponse.Status.UP);

        grid.placed = false; // a third member joins and copies move again
        HealthCheckResponse later = check.call();
        assertThat(later.getStatus())
                .as("a serving node keeps serving")
                .isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(later.getData().orElseThrow()).containsEntry("members", 2L);
    }

    @Test
    void withTheGridOffTheCheckIsUpAndSaysSo() {
        grid.members = OptionalInt.empty();
        HealthCheckResponse off = check.call();
        assertThat(off.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(off.getData().orElseThrow()).containsEntry("grid", "off");
    }
}
