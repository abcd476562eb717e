package com.editlock.lock.internal;

import com.editlock.lock.Lock;
import com.editlock.lock.LockEvent;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns rows of {@code app_lock} and {@code lock_event} into {@link Lock}s and {@link LockEvent}s.
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
                rs.getString("reason"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp ts = rs.getTimestamp(column);
        return ts == null ? null : ts.toInstant();
    }
}
