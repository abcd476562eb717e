package com.editlock.lock.internal;

import com.editlock.platform.Database;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /health/ready}: this node can grant and release locks (the database answers within 2 s)
 * and its screens hear of changes (the lock feed read the history within the last 10 s). Either
 * failing makes the node {@code DOWN} ({@code 503}), so a load balancer stops sending it users
 * until it recovers by itself.
 */
@Readiness
@ApplicationScoped
public class LockStoreReadiness implements HealthCheck {

    private static final long FEED_STALE_MILLIS = 10_000;

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    @Inject LockEventFeed feed;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("lock-store");
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.setQueryTimeout(2);
            s.execute(LockStatements.ANSWERS);
            response.withData("database", "answers");
        } catch (SQLException | RuntimeException e) {
            return response.down()
                    .withData("database", "does not answer: " + e.getMessage())
                    .build();
        }
        long sinceRead = feed.millisSinceLastRead();
        response.withData("feedMillisSinceLastRead", sinceRead);
        return sinceRead > FEED_STALE_MILLIS
                ? response.down().withData("feed", "stalled").build()
                : response.up().build();
    }
}
