package com.editlock.lock.internal;

import com.editlock.lock.LockChange;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LockKey;
import com.editlock.platform.Database;
import com.editlock.platform.FeedCursor;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The one place that turns the lock history into {@link LockChange} events: every node reads new
 * {@code lock_event} rows every {@value #POLL_MILLIS} ms and fires one event per row, so a grant or
 * release on any node, by any path (screen, API, sweep, session end, admin), reaches the screens of
 * every node within a fraction of a second.
 *
 * <p>Why reading the history rather than {@code LISTEN/NOTIFY}: a transaction that issues {@code
 * NOTIFY} takes a database-wide lock while it commits. Measured on 2 cores with durable commits,
 * the notifying trigger cost 35 % of acquire+release throughput at 4 and 16 clients (see the
 * README); reading an index range ten times a second costs each node almost nothing and needs no
 * dedicated connection. The price: a change made behind Editlock's back (a manual {@code DELETE} on
 * {@code app_lock}) is not announced; use the force release instead.
 *
 * <p>When the database is unreachable the feed backs off (up to {@value #MAX_BACKOFF_MILLIS} ms)
 * and resumes where it stopped when the database returns.
 */
@Startup
@Singleton
@DependsOn("PlatformStartup")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class LockEventFeed {

    static final long POLL_MILLIS = 100;
    private static final long MAX_BACKOFF_MILLIS = 5_000;

    /** How long a missing id may hold the feed back before it counts as rolled back. */
    private static final long GAP_PATIENCE_MILLIS = 5_000;

    private static final int BATCH = 1_000;
    private static final Logger LOG = Logger.getLogger(LockEventFeed.class.getName());

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    @Resource ManagedThreadFactory threads;

    @Inject Event<LockChange> changes;

    private volatile boolean running = true;

    /** Released to read now rather than at the next poll ({@link #readNow}). */
    private final java.util.concurrent.Semaphore wake = new java.util.concurrent.Semaphore(0);

    private volatile long lastReadMillis = System.currentTimeMillis();
    private Thread reader;

    @PostConstruct
    void start() {
        reader = threads.newThread(this::readForever);
        reader.setName("editlock-lock-feed");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Stops reading. Called when the application stops (before its data source goes away on an
     * undeploy or a redeploy, so the last read does not fail noisily) and again as the bean is
     * destroyed.
     */
    @PreDestroy
    public void stop() {
        running = false;
        reader.interrupt();
    }

    private void readForever() {
        FeedCursor cursor = null;
        long backoff = POLL_MILLIS;
        while (running) {
            try {
                if (cursor == null) {
                    cursor = new FeedCursor(lastEventId(), GAP_PATIENCE_MILLIS);
                }
                for (LockChange change : read(cursor)) {
                    try {
                        changes.fire(change);
                    } catch (RuntimeException e) {
                        LOG.log(
                                Level.WARNING,
                                "A screen failed to take in a lock change; the others still do.",
                                e);
                    }
                }
                backoff = POLL_MILLIS;
                lastReadMillis = System.currentTimeMillis();
            } catch (SQLException | RuntimeException e) {
                if (!running) {
                    return; // the application is stopping and its data source with it
                }
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
                LOG.log(
                        Level.WARNING,
                        "The lock feed cannot read the history; trying again in "
                                + backoff
                                + " ms.",
                        e);
            }
            try {
                if (wake.tryAcquire(backoff, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    wake.drainPermits(); // one read takes in every change made meanwhile
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * A change of this node's has committed: read now, so that this node's pages hear it at once
     * rather than up to a poll later (the other nodes' pages hear it at their next poll). Never
     * waits.
     */
    @jakarta.ejb.TransactionAttribute(jakarta.ejb.TransactionAttributeType.NOT_SUPPORTED)
    public void readNow() {
        wake.release();
    }

    /** How long ago the feed last read the history successfully. */
    public long millisSinceLastRead() {
        return System.currentTimeMillis() - lastReadMillis;
    }

    private long lastEventId() throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(LockStatements.LAST_EVENT_ID);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private List<LockChange> read(FeedCursor cursor) throws SQLException {
        List<LockChange> fresh = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        LockRows.bind(
                                c.prepareStatement(LockStatements.HISTORY_AFTER),
                                cursor.floor(),
                                BATCH);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                long id = rs.getLong("id");
                if (cursor.accept(id) && rs.getString("aggregate_key") != null) {
                    fresh.add(
                            new LockChange(
                                    id,
                                    rs.getTimestamp("occurred_at").toInstant(),
                                    LockEventType.valueOf(rs.getString("event_type")),
                                    LockKey.parse(rs.getString("resource_key")),
                                    LockKey.parse(rs.getString("aggregate_key")),
                                    rs.getString("owner_id"),
                                    rs.getString("user_login"),
                                    rs.getString("display_name"),
                                    rs.getObject("fencing_token", Long.class),
                                    rs.getString("actor"),
                                    rs.getString("reason")));
                }
            }
        }
        cursor.advance(System.currentTimeMillis());
        return fresh;
    }
}
