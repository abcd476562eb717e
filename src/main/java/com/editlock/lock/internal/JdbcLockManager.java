package com.editlock.lock.internal;

import com.editlock.lock.Lock;
import com.editlock.lock.LockEvent;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockNotHeldException;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LockUnavailableException;
import com.editlock.lock.ReleaseCause;
import com.editlock.lock.ResourceCatalog;
import com.editlock.platform.Settings;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * The lock store: plain SQL on the application's JTA data source, so a save's fencing check and its writes share one
 * transaction.
 *
 * <p>Acquiring is one short transaction and, when the lock is free, one round trip: a single prepared text of
 * several statements that PostgreSQL runs in order, each with a fresh snapshot.
 * <ol>
 * <li>{@code pg_advisory_xact_lock} on each aggregate involved, in key order: acquisitions inside one aggregate are
 * serialized (the hierarchy check below is then race-free), other aggregates proceed in parallel. It is a statement
 * of its own on purpose: in READ COMMITTED each later statement then sees every grant committed before it.</li>
 * <li>Lapsed rows of those aggregates are deleted and audited as expired (they would trip the unique index).</li>
 * <li>One statement grants every requested key, or none: unless another owner holds a live lock on the same key, on
 * the aggregate itself, or (when the aggregate is requested) anywhere inside it, with one of the two in WRITE mode,
 * it runs {@code INSERT … ON CONFLICT (resource_key, owner_id) DO UPDATE} (a new grant, or the idempotent re-acquire
 * that moves the lock to the new tab and keeps its fencing token) and audits each grant. The partial unique index on
 * WRITE rows stays the database's own guarantee of one writer per key.</li>
 * </ol>
 * Nothing granted means refused: a second round trip reads who is in the way and audits the denial.
 *
 * Every statement uses {@code statement_timestamp()}, not {@code now()}: a transaction that queued behind the
 * advisory lock must judge expiry by the time it runs, not the time it began.
 */
@ApplicationScoped
public class JdbcLockManager implements LockManager {

    static final int SWEEP_BATCH = 500;

    private static final String COLUMNS = "resource_key, aggregate_key, mode, owner_id, owner_view, user_login, "
            + "display_name, acquired_at, renewed_at, expires_at, fencing_token";

    private static final String CONFLICTS = "select " + COLUMNS + " from app_lock o"
            + " where o.aggregate_key = ? and o.owner_id <> ? and o.expires_at > statement_timestamp()"
            + " and (o.mode = 'WRITE' or ? = 'WRITE')"
            + " and (o.resource_key = ? or o.resource_key = o.aggregate_key or ? = o.aggregate_key)"
            + " order by o.acquired_at, o.resource_key";

    /** Grants all requested rows ({@code values} list filled in) or none, and audits each grant. */
    private static final String GRANT_ALL = "with request (resource_key, aggregate_key) as (values %s),"
            + " blocked as (select 1 from request r join app_lock o on o.aggregate_key = r.aggregate_key"
            + " where o.owner_id <> ? and o.expires_at > statement_timestamp() and (o.mode = 'WRITE' or ? = 'WRITE')"
            + " and (o.resource_key = r.resource_key or o.resource_key = o.aggregate_key"
            + " or r.resource_key = o.aggregate_key) limit 1),"
            + " granted as (insert into app_lock (resource_key, aggregate_key, mode, owner_id, owner_view, user_login,"
            + " display_name, expires_at) select r.resource_key, r.aggregate_key, ?, ?, ?, ?, ?,"
            + " statement_timestamp() + make_interval(secs => ?) from request r where not exists (select 1 from blocked)"
            + " on conflict (resource_key, owner_id) do update set owner_view = excluded.owner_view,"
            + " renewed_at = statement_timestamp(), expires_at = excluded.expires_at,"
            + " mode = case when excluded.mode = 'WRITE' then 'WRITE' else app_lock.mode end"
            + " returning *, (xmax = 0) as inserted),"
            + " audited as (insert into lock_event (event_type, resource_key, mode, owner_id, user_login, display_name,"
            + " fencing_token) select case when inserted then 'ACQUIRED' else 'REACQUIRED' end, resource_key, mode,"
            + " owner_id, user_login, display_name, fencing_token from granted)"
            + " select " + COLUMNS + " from granted order by resource_key";

    private static final String AUDIT = "insert into lock_event (event_type, resource_key, mode, owner_id, user_login,"
            + " display_name, fencing_token, actor, reason) values (?, ?, ?, ?, ?, ?, ?, ?, ?)";

    /** Deletes the rows a condition selects and audits each with one cause, in one statement. */
    private static final String DELETE_AND_AUDIT = "with gone as (delete from app_lock where %s returning *)"
            + " insert into lock_event (event_type, resource_key, mode, owner_id, user_login, display_name,"
            + " fencing_token, actor, reason)"
            + " select ?, resource_key, mode, owner_id, user_login, display_name, fencing_token, ?, ? from gone"
            + " returning resource_key";

    @Resource(lookup = "java:app/jdbc/editlock")
    DataSource dataSource;

    @Inject
    ResourceCatalog catalog;

    @Inject
    Settings settings;

    @Override
    @Transactional(dontRollbackOn = LockUnavailableException.class)
    public Lock acquire(LockKey key, LockMode mode, LockOwner owner, String view) {
        return acquireAll(List.of(key), mode, owner, view).get(0);
    }

    @Override
    @Transactional(dontRollbackOn = LockUnavailableException.class)
    public List<Lock> acquireAll(Collection<LockKey> keys, LockMode mode, LockOwner owner, String view) {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("At least one resource key is needed.");
        }
        TreeMap<LockKey, LockKey> aggregateOf = new TreeMap<>();
        for (LockKey key : new TreeSet<>(keys)) {
            aggregateOf.put(key, catalog.aggregateOf(key));
        }
        try (Connection c = dataSource.getConnection()) {
            // A holder may release (releases take no advisory lock) between the refused grant and the look at who
            // was in the way; then nobody is, and the grant is tried again. New grants cannot appear meanwhile: this
            // transaction holds the aggregates' advisory locks. So the second try succeeds; three is a safety margin.
            for (int attempt = 0; attempt < 3; attempt++) {
                List<Lock> granted = grantAll(c, aggregateOf, mode, owner, view);
                if (granted.size() == aggregateOf.size()) {
                    return granted;
                }
                for (var entry : aggregateOf.entrySet()) {
                    List<Lock> conflicts = conflicts(c, entry.getKey(), entry.getValue(), mode, owner.ownerId());
                    if (!conflicts.isEmpty()) {
                        audit(c, "DENIED", entry.getKey(), mode, owner, null, null, null);
                        throw new LockUnavailableException(entry.getKey(), conflicts);
                    }
                }
            }
            throw new IllegalStateException("Nothing was granted and nothing is in the way of " + keys);
        } catch (SQLException e) {
            throw new LockStoreException("acquire " + keys, e);
        }
    }

    /** The fast path: serialize, clear lapsed rows, grant all or none, in one round trip. */
    private List<Lock> grantAll(Connection c, TreeMap<LockKey, LockKey> aggregateOf, LockMode mode, LockOwner owner,
            String view) throws SQLException {
        StringBuilder sql = new StringBuilder();
        TreeSet<LockKey> aggregates = new TreeSet<>(aggregateOf.values());
        for (int i = 0; i < aggregates.size(); i++) {
            sql.append("select pg_advisory_xact_lock(hashtextextended(?, 0));")
                    .append(String.format(DELETE_AND_AUDIT,
                            "aggregate_key = ? and expires_at <= statement_timestamp()"))
                    .append(';');
        }
        sql.append(String.format(GRANT_ALL, String.join(", ", java.util.Collections.nCopies(aggregateOf.size(),
                "(?, ?)"))));
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            int i = 1;
            for (LockKey aggregate : aggregates) {
                ps.setString(i++, aggregate.toString());
                ps.setString(i++, aggregate.toString());
                ps.setString(i++, ReleaseCause.EXPIRED.name());
                ps.setString(i++, null);
                ps.setString(i++, null);
            }
            for (var entry : aggregateOf.entrySet()) {
                ps.setString(i++, entry.getKey().toString());
                ps.setString(i++, entry.getValue().toString());
            }
            ps.setString(i++, owner.ownerId());
            ps.setString(i++, mode.name());
            ps.setString(i++, mode.name());
            ps.setString(i++, owner.ownerId());
            ps.setString(i++, view);
            ps.setString(i++, owner.login());
            ps.setString(i++, owner.displayName());
            ps.setInt(i, settings.leaseSeconds());
            List<Lock> granted = new ArrayList<>();
            boolean isResultSet = ps.execute();
            while (true) {
                if (isResultSet) {
                    try (ResultSet rs = ps.getResultSet()) {
                        if (rs.getMetaData().getColumnCount() > 1) { // the grant, not an advisory lock's void
                            while (rs.next()) {
                                granted.add(lock(rs));
                            }
                        }
                    }
                } else if (ps.getUpdateCount() == -1) {
                    return granted;
                }
                isResultSet = ps.getMoreResults();
            }
        }
    }

    @Override
    @Transactional
    public boolean release(LockKey key, String ownerId) {
        return !delete("resource_key = ? and owner_id = ?", ReleaseCause.RELEASED, null, null,
                key.toString(), ownerId).isEmpty();
    }

    @Override
    @Transactional
    public List<LockKey> releaseView(String ownerId, String view) {
        return delete("owner_id = ? and owner_view = ?", ReleaseCause.VIEW_CLOSED, null, null, ownerId, view);
    }

    @Override
    @Transactional
    public List<LockKey> releaseAll(String ownerId) {
        return delete("owner_id = ?", ReleaseCause.SESSION_ENDED, null, null, ownerId);
    }

    @Override
    @Transactional
    public int renew(String ownerId, String view) {
        String sql = "with mine as (select id, expires_at <= statement_timestamp() as lapsed from app_lock"
                + " where owner_id = ? and (? :: varchar is null or owner_view = ?) for update),"
                + " renewed as (update app_lock a set renewed_at = statement_timestamp(),"
                + " expires_at = statement_timestamp() + make_interval(secs => ?)"
                + " from mine m where a.id = m.id returning a.*, m.lapsed),"
                + " audited as (insert into lock_event (event_type, resource_key, mode, owner_id, user_login,"
                + " display_name, fencing_token) select 'RENEWED_AFTER_LAPSE', resource_key, mode, owner_id,"
                + " user_login, display_name, fencing_token from renewed where lapsed)"
                + " select count(*) from renewed";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, ownerId);
            ps.setString(2, view);
            ps.setString(3, view);
            ps.setInt(4, settings.leaseSeconds());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new LockStoreException("renew", e);
        }
    }

    @Override
    @Transactional
    public Optional<Lock> holder(LockKey key) {
        List<Lock> locks = query("select " + COLUMNS + " from app_lock where resource_key = ?"
                + " and expires_at > statement_timestamp() order by mode = 'WRITE' desc, acquired_at limit 1",
                key.toString());
        return locks.stream().findFirst();
    }

    @Override
    @Transactional
    public List<Lock> locksOf(String ownerId) {
        return query("select " + COLUMNS + " from app_lock where owner_id = ? and expires_at > statement_timestamp()"
                + " order by acquired_at, resource_key", ownerId);
    }

    @Override
    @Transactional
    public List<Lock> allLocks() {
        return query("select " + COLUMNS + " from app_lock where expires_at > statement_timestamp()"
                + " order by acquired_at, resource_key");
    }

    @Override
    @Transactional
    public List<Lock> forceRelease(LockKey key, String adminLogin, String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("A reason is required to force-release " + key + ".");
        }
        if (reason.length() > 500) {
            throw new IllegalArgumentException("The reason is too long: at most 500 characters.");
        }
        List<Lock> held = query("select " + COLUMNS + " from app_lock where resource_key = ? for update",
                key.toString());
        delete("resource_key = ?", ReleaseCause.FORCE_RELEASED, adminLogin, reason.strip(), key.toString());
        return held;
    }

    @Override
    @Transactional(Transactional.TxType.MANDATORY)
    public Lock verify(LockKey key, String ownerId, long fencingToken) {
        // FOR SHARE: the lock cannot be released, swept or force-released until the caller's save commits.
        List<Lock> mine = query("select " + COLUMNS + " from app_lock where resource_key = ? and owner_id = ?"
                + " and fencing_token = ? and expires_at > statement_timestamp() for share",
                key.toString(), ownerId, fencingToken);
        if (!mine.isEmpty()) {
            return mine.get(0);
        }
        throw new LockNotHeldException(key, whyNotHeld(key, fencingToken));
    }

    @Override
    @Transactional
    public List<LockKey> sweepExpired() {
        List<LockKey> swept = new ArrayList<>();
        List<LockKey> batch;
        do {
            batch = delete("id in (select id from app_lock where expires_at <= statement_timestamp()"
                    + " order by expires_at limit " + SWEEP_BATCH + " for update skip locked)",
                    ReleaseCause.EXPIRED, null, null);
            swept.addAll(batch);
        } while (batch.size() == SWEEP_BATCH);
        return swept;
    }

    @Override
    @Transactional
    public List<LockEvent> history(LockKey key, int limit) {
        String sql = "select id, occurred_at, event_type, resource_key, mode, user_login, display_name, fencing_token,"
                + " actor, reason from lock_event where (? :: varchar is null or resource_key = ?)"
                + " order by id desc limit ?";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            String resource = key == null ? null : key.toString();
            ps.setString(1, resource);
            ps.setString(2, resource);
            ps.setInt(3, Math.max(1, Math.min(limit, 1000)));
            List<LockEvent> events = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long token = rs.getLong("fencing_token");
                    events.add(new LockEvent(rs.getLong("id"), instant(rs, "occurred_at"), rs.getString("event_type"),
                            rs.getString("resource_key"), rs.getString("mode"), rs.getString("user_login"),
                            rs.getString("display_name"), rs.wasNull() ? null : token, rs.getString("actor"),
                            rs.getString("reason")));
                }
            }
            return events;
        } catch (SQLException e) {
            throw new LockStoreException("read the history", e);
        }
    }

    private String whyNotHeld(LockKey key, long fencingToken) {
        String sql = "select event_type, actor, reason from lock_event where resource_key = ? and fencing_token = ?"
                + " and event_type in ('RELEASED', 'VIEW_CLOSED', 'SESSION_ENDED', 'EXPIRED', 'FORCE_RELEASED')"
                + " order by id desc limit 1";
        String what = "Your lock on " + key + " is no longer held";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, key.toString());
            ps.setLong(2, fencingToken);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    what = switch (rs.getString(1)) {
                        case "FORCE_RELEASED" -> "Your lock on " + key + " was released by " + rs.getString(2)
                                + " (" + rs.getString(3) + ")";
                        case "EXPIRED" -> "Your lock on " + key + " expired because no heartbeat renewed it";
                        case "SESSION_ENDED" -> "Your lock on " + key + " ended with your session";
                        case "VIEW_CLOSED" -> "Your lock on " + key + " ended when its tab closed";
                        default -> "Your lock on " + key + " was released";
                    };
                }
            }
        } catch (SQLException e) {
            throw new LockStoreException("explain lost lock", e);
        }
        DateTimeFormatter hhmm = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneId.systemDefault());
        String now = holder(key).map(l -> l.displayName() + " has been editing it since "
                + hhmm.format(l.acquiredAt())).orElse("nobody holds it now");
        return what + "; " + now + ". Nothing was saved.";
    }

    private static void serialize(Connection c, LockKey aggregate) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select pg_advisory_xact_lock(hashtextextended(?, 0))")) {
            ps.setString(1, aggregate.toString());
            ps.execute();
        }
    }

    private static List<Lock> conflicts(Connection c, LockKey key, LockKey aggregate, LockMode mode, String ownerId)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(CONFLICTS)) {
            ps.setString(1, aggregate.toString());
            ps.setString(2, ownerId);
            ps.setString(3, mode.name());
            ps.setString(4, key.toString());
            ps.setString(5, key.toString());
            return read(ps);
        }
    }

    private static void audit(Connection c, String type, LockKey key, LockMode mode, LockOwner owner, Long token,
            String actor, String reason) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(AUDIT)) {
            ps.setString(1, type);
            ps.setString(2, key.toString());
            ps.setString(3, mode.name());
            ps.setString(4, owner.ownerId());
            ps.setString(5, owner.login());
            ps.setString(6, owner.displayName());
            ps.setObject(7, token);
            ps.setString(8, actor);
            ps.setString(9, reason);
            ps.executeUpdate();
        }
    }

    private List<LockKey> delete(String where, ReleaseCause cause, String actor, String reason, Object... params) {
        try (Connection c = dataSource.getConnection()) {
            return deleteAndAudit(c, where, cause, actor, reason, params);
        } catch (SQLException e) {
            throw new LockStoreException(cause + " " + where, e);
        }
    }

    private static List<LockKey> deleteAndAudit(Connection c, String where, ReleaseCause cause, String actor,
            String reason, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(String.format(DELETE_AND_AUDIT, where))) {
            int i = 1;
            for (Object p : params) {
                ps.setObject(i++, p);
            }
            ps.setString(i++, cause.name());
            ps.setString(i++, actor);
            ps.setString(i, reason);
            List<LockKey> keys = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    keys.add(LockKey.parse(rs.getString(1)));
                }
            }
            return keys;
        }
    }

    private List<Lock> query(String sql, Object... params) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            return read(ps);
        } catch (SQLException e) {
            throw new LockStoreException("query", e);
        }
    }

    private static List<Lock> read(PreparedStatement ps) throws SQLException {
        List<Lock> locks = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                locks.add(lock(rs));
            }
        }
        return locks;
    }

    private static Lock lock(ResultSet rs) throws SQLException {
        return new Lock(LockKey.parse(rs.getString("resource_key")), LockKey.parse(rs.getString("aggregate_key")),
                LockMode.valueOf(rs.getString("mode")), rs.getString("owner_id"), rs.getString("owner_view"),
                rs.getString("user_login"), rs.getString("display_name"), instant(rs, "acquired_at"),
                instant(rs, "renewed_at"), instant(rs, "expires_at"), rs.getLong("fencing_token"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp ts = rs.getTimestamp(column);
        return ts == null ? null : ts.toInstant();
    }
}
