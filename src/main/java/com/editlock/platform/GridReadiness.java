package com.editlock.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.OptionalInt;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /health/ready} of a node that joins a data grid says {@code DOWN} until the grid has
 * placed its copies: every partition has its backup in place and nothing is migrating (Hazelcast's
 * "cluster safe"). A node that serves before that would be the only holder of sessions it takes on,
 * and a rolling restart that signals the next node as soon as this one answers would kill the only
 * copy of sessions still on their way. Once placed, the check stays {@code UP} for the node's life:
 * a member joining or leaving later moves copies again, but the nodes already serving must go on
 * serving meanwhile (all of them {@code DOWN} would turn every user away). With the grid off the
 * check is {@code UP} and says so.
 */
@Readiness
@ApplicationScoped
public class GridReadiness implements HealthCheck {

    /** The check's name in {@code /health/ready}. */
    public static final String NAME = "data-grid";

    @Inject DataGrid grid;

    private volatile boolean placed;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named(NAME);
        OptionalInt members = grid.members();
        if (members.isEmpty()) {
            return response.up().withData("grid", "off").build();
        }
        if (!placed) {
            placed = grid.copiesPlaced();
        }
        response.withData("members", members.getAsInt()).withData("copiesPlaced", placed);
        return placed ? response.up().build() : response.down().build();
    }
}
