package com.editlock.live;

import com.editlock.lock.LockKey;
import com.editlock.platform.Database;
import com.editlock.platform.FeedCursor;
import com.editlock.platform.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Who is looking at which record, on every node: a page joins when it opens and leaves when its tab
 * closes (after the same grace as its locks), when its view ends, or when its session ends. The
 * viewers live in {@code page_viewer}, so a page on one node lists the viewers served by every
 * node; every change is also written to {@code presence_change}, which each node reads a few times
 * a second and turns into {@link PresenceChange} events for its own pages (the way lock changes
 * travel, without {@code NOTIFY}).
 *
 * <p>Each node renews its own viewers in one statement every quarter lease, so presence costs the
 * database per node, not per page; the viewers of a node that died are no longer renewed and are
 * removed a lease later by whichever node looks first. Presence only reads and tells; nothing here
 * can refuse or delay an edit, and a failure is logged and forgotten (the page shows fewer viewers
 * until the next change).
 */
@ApplicationScoped
public class Presence {

    private static final Logger LOG = Logger.getLogger(Presence.class.getName());

    /** How often the changes are read. */
    static final long POLL_MILLIS = 150;

    /**
     * How long a missing change id holds the cursor back: a change whose transaction commits this
     * late after it took its id is missed (a rolled-back one never fills its id).
     */
    private static final long GAP_PATIENCE_MILLIS = 3_000;

    /** Released to read now: a change of this node's was just written. */
    private final java.util.concurrent.Semaphore wake = new java.util.concurrent.Semaphore(0);

    /** At most this many changes per read; the rest come in the next one. */
    private static final int BATCH = 500;

    private static final String JOIN =
            """
            insert into page_viewer (view_token, resource_key, owner_id, user_login, display_name, node_id)
            values (?, ?, ?, ?, ?, ?)
            on conflict (view_token) do update set resource_key = excluded.resource_key,
                seen_at = statement_timestamp()
            returning (select resource_key from page_viewer where view_token = ?) as before""";
    private static final String LEAVE =
            "delete from page_viewer where view_token = ? returning resource_key";
    private static final String CHANGED = "insert into presence_change (resource_key) values (?)";
    private static final String VIEWERS =
            """
            select resource_key, view_token, owner_id, user_login, display_name from page_viewer
            where resource_key = any (?) order by display_name, user_login""";
    private static final String RENEW =
            "update page_viewer set seen_at = statement_timestamp() where node_id = ?";

    /** Viewers of nodes that stopped renewing (they died): removed, and their records told. */
    private static final String EXPIRE =
            """
            with gone as (delete from page_viewer
                          where seen_at < statement_timestamp() - make_interval(secs => ?) returning resource_key)
            insert into presence_change (resource_key) select distinct resource_key from gone""";

    private static final String FORGET_CHANGES =
            "delete from presence_change where changed_at < statement_timestamp() - interval '1 minute'";
    private static final String CHANGES_AFTER =
            "select id, resource_key from presence_change where id > ? order by id limit ?";
    private static final String LAST_CHANGE = "select coalesce(max(id), 0) from presence_change";

    /** This node, as long as it runs: its viewers are renewed under this id. */
    private final String nodeId = UUID.randomUUID().toString();

    /**
     * Where this node stands in {@code presence_change}: the same cursor as the lock history's
     * feed, so a change that commits after a later one is still told.
     */
    private FeedCursor cursor;

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    @Resource ManagedThreadFactory threads;

    @Inject Settings settings;

    @Inject Event<PresenceChange> changes;

    private volatile boolean running = true;
    private Thread reader;

    @PostConstruct
    void start() {
        reader = threads.newThread(this::readForever);
        reader.setName("editlock-presence-feed");
        reader.setDaemon(true);
        reader.start();
    }

    @PreDestroy
    void stop() {
        running = false;
        reader.interrupt();
    }

    /** The page of tab {@code viewer} now looks at {@code key}. */
    public void join(LockKey key, Viewer viewer) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement join = c.prepareStatement(JOIN)) {
            join.setString(1, viewer.viewToken());
            join.setString(2, key.toString());
            join.setString(3, viewer.ownerId());
            join.setString(4, viewer.userLogin());
            join.setString(5, viewer.displayName());
            join.setString(6, nodeId);
            join.setString(7, viewer.viewToken());
            String before = null;
            try (ResultSet rs = join.executeQuery()) {
                if (rs.next()) {
                    before = rs.getString(1);
                }
            }
            changed(c, key.toString());
            if (before != null && !before.equals(key.toString())) {
                changed(c, before);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "Could not note who is viewing " + key, e);
        }
    }

    /** The page of tab {@code viewToken} is gone. */
    public void leave(String viewToken) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement leave = c.prepareStatement(LEAVE)) {
            leave.setString(1, viewToken);
            try (ResultSet rs = leave.executeQuery()) {
                while (rs.next()) {
                    changed(c, rs.getString(1));
                }
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "Could not note that a page closed", e);
        }
        wake.release(); // this node's pages hear it at once, the others' at their next read
    }

    /**
     * Everyone looking at {@code key}, on any node, one entry per person (several tabs count once),
     * by name.
     */
    public List<Viewer> viewers(LockKey key) {
        return viewers(List.of(key)).getOrDefault(key, List.of());
    }

    /**
     * Everyone looking at each of {@code keys} (one read for all), as {@link #viewers(LockKey)}.
     */
    public Map<LockKey, List<Viewer>> viewers(Collection<LockKey> keys) {
        Map<LockKey, Map<String, Viewer>> perPerson = new LinkedHashMap<>();
        if (keys.isEmpty()) {
            return Map.of();
        }
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(VIEWERS)) {
            ps.setArray(
                    1,
                    c.createArrayOf(
                            "varchar", keys.stream().map(LockKey::toString).distinct().toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Viewer v =
                            new Viewer(
                                    rs.getString("view_token"),
                                    rs.getString("owner_id"),
                                    rs.getString("user_login"),
                                    rs.getString("display_name"));
                    perPerson
                            .computeIfAbsent(
                                    LockKey.parse(rs.getString("resource_key")),
                                    k -> new LinkedHashMap<>())
                            .putIfAbsent(v.userLogin(), v);
                }
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "Could not read who is viewing", e);
        }
        Map<LockKey, List<Viewer>> viewers = new HashMap<>();
        perPerson.forEach((key, people) -> viewers.put(key, new ArrayList<>(people.values())));
        return viewers;
    }

    private static void changed(Connection c, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(CHANGED)) {
            ps.setString(1, key);
            ps.executeUpdate();
        }
    }

    /**
     * Reads the changes of every node and tells this node's pages; renews and expires viewers on
     * the way.
     */
    private void readForever() {
        long nextRenewal = 0;
        while (running) {
            try (Connection c = dataSource.getConnection()) {
                long now = System.currentTimeMillis();
                if (now >= nextRenewal) {
                    renewAndExpire(c);
                    nextRenewal = now + Math.max(1, settings.leaseSeconds() / 4) * 1000L;
                }
                for (String key : unseenChanges(c, now)) {
                    announce(key);
                }
            } catch (SQLException | RuntimeException e) {
                if (!running) {
                    return;
                }
                LOG.log(Level.FINE, "Could not read who is viewing what; trying again", e);
            }
            try {
                if (wake.tryAcquire(POLL_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    wake.drainPermits(); // one read takes in every change made meanwhile
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void renewAndExpire(Connection c) throws SQLException {
        try (PreparedStatement renew = c.prepareStatement(RENEW);
                PreparedStatement expire = c.prepareStatement(EXPIRE);
                PreparedStatement forget = c.prepareStatement(FORGET_CHANGES)) {
            renew.setString(1, nodeId);
            renew.executeUpdate();
            expire.setInt(1, settings.leaseSeconds());
            expire.executeUpdate();
            forget.executeUpdate();
        }
    }

    private Set<String> unseenChanges(Connection c, long now) throws SQLException {
        Set<String> keys = new LinkedHashSet<>();
        if (cursor == null) { // starts at the present: what changed before this node ran is old
            try (PreparedStatement ps = c.prepareStatement(LAST_CHANGE);
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                cursor = new FeedCursor(rs.getLong(1), GAP_PATIENCE_MILLIS);
            }
        }
        try (PreparedStatement ps = c.prepareStatement(CHANGES_AFTER)) {
            ps.setLong(1, cursor.floor());
            ps.setInt(2, BATCH);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (cursor.accept(rs.getLong(1))) {
                        keys.add(rs.getString(2));
                    }
                }
            }
        }
        cursor.advance(now);
        return keys;
    }

    private void announce(String key) {
        try {
            changes.fire(new PresenceChange(LockKey.parse(key)));
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Could not announce who is viewing " + key, e);
        }
    }
}
