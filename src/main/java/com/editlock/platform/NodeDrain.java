package com.editlock.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /health/ready} says {@code DOWN} while the file named by {@code LOCKS_DRAIN_FILE} exists:
 * an operator drains a node by creating it (the proxy's health check sends the node no new requests
 * within 2 s) and takes it back by deleting it. The check also reports how many requests the
 * application has served on this node ({@code requestsServed}; the health checks themselves are not
 * counted), which is how a test, or an operator watching a drain, sees that nothing arrives any
 * more. A node whose process is stopping says {@code DOWN} too ({@link NodeStop}).
 */
@Readiness
@ApplicationScoped
public class NodeDrain implements HealthCheck {

    private static final AtomicLong SERVED = new AtomicLong();

    @Inject Settings settings;

    /** Counts one request served by the application (see {@link RequestCount}). */
    static void served() {
        SERVED.incrementAndGet();
    }

    @Override
    public HealthCheckResponse call() {
        var response =
                HealthCheckResponse.named("node-drain").withData("requestsServed", SERVED.get());
        if (NodeStop.stopping()) {
            return response.down().withData("stopping", true).build();
        }
        var file = settings.drainFile();
        if (file.isPresent() && Files.exists(Path.of(file.get()))) {
            return response.down().withData("draining", file.get()).build();
        }
        return response.up().build();
    }
}
