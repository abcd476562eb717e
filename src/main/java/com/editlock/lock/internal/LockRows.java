package com.editlock.lock.internal;

import com.editlock.lock.Lock;
import com.editlock.lock.LockEvent;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockStoreException;
import com.editlock.platform.PlainText;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Turns rows of {@code app_lock} and {@code lock_event} into {@link Lock}s and {@link LockEvent}s,
 * and runs the store's statements for both faces ({@link JdbcLockManager}, {@link
 * JdbcLockAdministration}): every release, whatever its cause, goes through the one audited delete
 * ({@link #deleteAndAudit}).
 */
final class LockRows {

    private LockRows() {}

    /**
     * Binds {@code params} in order and returns the statement. A {@code null} goes as
     * "unspecified", so the database types it from its place (a text, a time, a number).
     */
    static PreparedStatement bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            if (params[i] == null) {
                ps.setNull(i + 1, java.sql.Types.OTHER);
            } else {
                ps.setObject(i + 1, params[i]);
            }
        }
        return ps;
    }

    static List<Lock> locks(ResultSet rs) throws SQLException {
        List<Lock> locks = new ArrayList<>();
        while (rs.next()) {
            locks.add(lock(rs));
        }
        return locks;
    }

    static Lock lock(ResultSet rs) throws SQLException {
        return new Lock(
                LockKey.parse(rs.getString("resource_key")),
                LockKey.parse(rs.getString("aggregate_key")),
                LockMode.valueOf(rs.getString("mode")),
                rs.getString("owner_id"),
                rs.getString("owner_view"),
                rs.getString("user_login"),
                rs.getString("display_name"),
                instant(rs, "acquired_at"),
                instant(rs, "renewed_at"),
                instant(rs, "expires_at"),
                rs.getLong("fencing_token"));
    }

    static LockEvent event(ResultSet rs) throws SQLException {
        return new LockEvent(
                rs.getLong("id"),
                instant(rs, "occurred_at"),
                LockEventType.valueOf(rs.getString("event_type")),
                rs.getString("resource_key"),
                rs.getString("mode"),
                rs.getString("user_login"),
                rs.getString("display_name"),
                rs.getObject("fencing_token", Long.class),
                rs.getString("actor"),
                rs.getString("reason"),
                rs.getInt("repeats"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp ts = rs.getTimestamp(column);
        return ts == null ? null : ts.toInstant();
    }

    /** The locks {@code sql} answers with, on a connection of its own (or the transaction's). */
    static List<Lock> query(DataSource dataSource, String sql, Object... params) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = bind(c.prepareStatement(sql), params);
                ResultSet rs = ps.executeQuery()) {
            return locks(rs);
        } catch (SQLException e) {
            throw new LockStoreException(
                    "run " + sql.lines().findFirst().orElse(sql).strip() + " …", e);
        }
    }

    /** The history lines {@code sql} answers with. */
    static List<LockEvent> events(DataSource dataSource, String sql, Object... params) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = bind(c.prepareStatement(sql), params);
                ResultSet rs = ps.executeQuery()) {
            List<LockEvent> events = new ArrayList<>();
            while (rs.next()) {
                events.add(event(rs));
            }
            return events;
        } catch (SQLException e) {
            throw new LockStoreException("read the lock history", e);
        }
    }

    /** The one number {@code sql} answers with. */
    static long count(DataSource dataSource, String sql, Object... params) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = bind(c.prepareStatement(sql), params);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new LockStoreException("count", e);
        }
    }

    /**
     * Runs one release {@code statement}: its {@code condition} parameters, then the event type,
     * the actor and the reason its audit lines carry. The statement deletes and audits in one go
     * and answers with the locks it ended.
     */
    static List<Lock> deleteAndAudit(
            DataSource dataSource,
            String statement,
            LockEventType type,
            String actor,
            String reason,
            Object... condition) {
        Object[] params = new Object[condition.length + 3];
        System.arraycopy(condition, 0, params, 0, condition.length);
        params[condition.length] = type.name();
        params[condition.length + 1] = actor;
        params[condition.length + 2] = reason;
        return query(dataSource, statement, params);
    }

    /**
     * The reason of a force release or a take-over, stripped.
     *
     * @throws IllegalArgumentException when it is blank, longer than {@code max} characters or not
     *     plain text
     */
    static String checkedReason(String reason, String what, int max) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException(
                    "A reason is required to force-release " + what + ".");
        }
        if (reason.length() > max) {
            throw new IllegalArgumentException(
                    "The reason is too long: at most " + max + " characters.");
        }
        String broken = PlainText.problem(reason);
        if (broken != null) {
            throw new IllegalArgumentException("The reason " + broken);
        }
        return reason.strip();
    }
}
