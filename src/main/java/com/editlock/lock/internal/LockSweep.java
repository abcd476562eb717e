package com.editlock.lock.internal;

import com.editlock.lock.LockKey;
import com.editlock.platform.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * Deletes lapsed locks every {@code locks.sweep.seconds}. The timer is non-persistent (persistent
 * timers need the Hazelcast data grid, which Editlock keeps off) and created from configuration
 * rather than a fixed {@code @Schedule}. Every node runs it; the batched {@code FOR UPDATE SKIP
 * LOCKED} delete makes that safe and keeps acquisitions moving. Once an hour it also purges history
 * lines older than {@code locks.audit.retention.days}, in batches. It also times out the requests
 * to hand a lock over that nobody answered, and ends those whose lock ended another way.
 */
@Startup
@Singleton
@DependsOn("PlatformStartup")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class LockSweep {

    private static final Logger LOG = Logger.getLogger(LockSweep.class.getName());
    private static final long PURGE_EVERY_MILLIS = 3_600_000;
    private static final org.eclipse.microprofile.metrics.Metadata SWEEP_MILLIS =
            org.eclipse.microprofile.metrics.Metadata.builder()
                    .withName("lock_sweep_duration")
                    .withDescription("How long one sweep took")
                    .withUnit(org.eclipse.microprofile.metrics.MetricUnits.MILLISECONDS)
                    .build();

    @Resource TimerService timers;

    @Inject JdbcLockManager locks;

    @Inject JdbcLockAdministration administration;

    @Inject com.editlock.lock.Handovers handovers;

    @Inject Settings settings;

    @Inject MetricRegistry metrics;

    private final AtomicBoolean running = new AtomicBoolean();
    private volatile boolean stopped;

    /** When the history was last purged of lines past the retention (once an hour is plenty). */
    private volatile long lastPurge;

    @PostConstruct
    void schedule() {
        long every = settings.sweepSeconds() * 1000L;
        timers.createIntervalTimer(every, every, new TimerConfig("lock-sweep", false));
    }

    /**
     * Stops sweeping: the application is stopping (the other nodes' sweeps, or the next start's,
     * carry on).
     */
    public void stop() {
        stopped = true;
        timers.getTimers().forEach(jakarta.ejb.Timer::cancel);
    }

    @Timeout
    void sweep() {
        if (stopped || !running.compareAndSet(false, true)) {
            return; // stopping, or the previous sweep is still busy: skip this tick rather than
            // queue behind it
        }
        try {
            metrics.counter("lock_sweep_runs_total").inc();
            long started = System.nanoTime();
            List<LockKey> swept = locks.sweepExpired();
            metrics.histogram(SWEEP_MILLIS).update((System.nanoTime() - started) / 1_000_000);
            if (!swept.isEmpty()) {
                LOG.fine(() -> "Swept " + swept.size() + " lapsed lock(s): " + swept);
            }
            handovers.expire();
            if (System.currentTimeMillis() - lastPurge >= PURGE_EVERY_MILLIS) {
                lastPurge = System.currentTimeMillis();
                long purged = administration.purgeHistory(settings.auditRetentionDays());
                handovers.purge(settings.auditRetentionDays());
                if (purged > 0) {
                    LOG.info(
                            () ->
                                    "Purged "
                                            + purged
                                            + " lock history line(s) older than "
                                            + settings.auditRetentionDays()
                                            + " days.");
                }
            }
        } catch (RuntimeException e) {
            LOG.log(
                    stopped ? Level.FINE : Level.WARNING,
                    "Lock sweep failed; retrying at the next tick.",
                    e);
        } finally {
            running.set(false);
        }
    }
}
