package com.editlock.lock.internal;

import com.editlock.lock.LockChange;
import com.editlock.lock.LockKey;
import com.editlock.platform.Database;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.metrics.Histogram;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;

/**
 * The lock metrics on {@code /metrics} (application scope): locks held now by kind of resource
 * (read from the database at each scrape), and, from the lock history as the feed reads it,
 * acquisitions, refusals, releases by cause and how long locks were held. The history is shared, so
 * every node counts the whole cluster's events: scrape one node for those, or take the maximum,
 * never the sum. Sweep runs and their duration are the node's own ({@code LockSweep}).
 */
@ApplicationScoped
public class LockMetrics {

    private static final Logger LOG = Logger.getLogger(LockMetrics.class.getName());

    @Inject MetricRegistry registry;

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    /**
     * When each live token was granted, for the hold time at its release (bounded by the locks
     * held).
     */
    private final Map<Long, Long> grantedAt = new ConcurrentHashMap<>();

    private Histogram holdSeconds;

    /** One count per scrape, not one per gauge: the counts of the last second are reused. */
    private volatile Map<LockKey.Kind, Long> heldCounts = Map.of();

    private volatile long heldCountedAt;

    @PostConstruct
    void register() {
        for (LockKey.Kind kind : LockKey.Kind.values()) {
            registry.gauge(
                    Metadata.builder()
                            .withName("locks_held")
                            .withDescription("Locks held now, by the kind of resource")
                            .build(),
                    () -> held().getOrDefault(kind, 0L),
                    new Tag("kind", kind.name().toLowerCase(Locale.ROOT)));
        }
        holdSeconds =
                registry.histogram(
                        Metadata.builder()
                                .withName("lock_hold")
                                .withDescription("How long locks were held, from grant to release")
                                .withUnit(MetricUnits.SECONDS)
                                .build());
    }

    void observe(@Observes LockChange change) {
        switch (change.type()) {
            case ACQUIRED -> {
                registry.counter("lock_acquisitions_total").inc();
                grantedAt.put(change.fencingToken(), change.at().toEpochMilli());
            }
            case DENIED -> registry.counter("lock_denials_total").inc();
            default -> {
                if (change.endsLock()) {
                    registry.counter(
                                    "lock_releases_total",
                                    new Tag("cause", change.type().name().toLowerCase(Locale.ROOT)))
                            .inc();
                    Long since =
                            change.fencingToken() == null
                                    ? null
                                    : grantedAt.remove(change.fencingToken());
                    if (since != null) {
                        holdSeconds.update((change.at().toEpochMilli() - since) / 1000);
                    }
                }
            }
        }
    }

    private Map<LockKey.Kind, Long> held() {
        if (System.currentTimeMillis() - heldCountedAt < 1_000) {
            return heldCounts;
        }
        Map<LockKey.Kind, Long> counts = new EnumMap<>(LockKey.Kind.class);
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(LockStatements.HELD_BY_KIND);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                counts.put(LockKey.Kind.valueOf(rs.getString(1)), rs.getLong(2));
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "Could not count the locks for the metrics", e);
        }
        heldCounts = counts;
        heldCountedAt = System.currentTimeMillis();
        return counts;
    }
}
