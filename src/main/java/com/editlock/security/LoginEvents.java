package com.editlock.security;

import com.editlock.platform.Database;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The login throttle's shared memory: every failed login, successful login and failed API token,
 * one row of {@code login_event}, read back by every node in id order (see {@link LoginThrottle}).
 * The table keeps {@link LoginThrottle#FORGET_AFTER}; the node that writes deletes what is older,
 * at most once a minute.
 */
@ApplicationScoped
public class LoginEvents {

    /** What happened. */
    public enum Kind {
        FAILED('F'),
        SUCCEEDED('S'),
        TOKEN_FAILED('T');

        final char code;

        Kind(char code) {
            this.code = code;
        }

        static Kind of(String code) {
            for (Kind k : values()) {
                if (code.charAt(0) == k.code) {
                    return k;
                }
            }
            throw new IllegalArgumentException("No login event kind " + code);
        }
    }

    /** One row: its id orders it; {@code at} is the writing node's clock. */
    public record Event(long id, Kind kind, String login, String address, Instant at) {}

    /** Rows read per query; a node that is further behind reads again at once. */
    static final int BATCH = 500;

    private static final String APPEND =
            "insert into login_event (kind, login, address, at) values (?, ?, ?, ?) returning id";
    private static final String SINCE =
            "select id, kind, login, address, at from login_event where id > ? order by id limit "
                    + BATCH;
    private static final String FORGET = "delete from login_event where at < ?";

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    private volatile Instant lastForget = Instant.EPOCH;

    /**
     * Appends one event and returns its id; deletes those the throttle has forgotten, once a
     * minute.
     */
    public long append(Kind kind, String login, String address, Instant at) throws SQLException {
        long id;
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement(APPEND)) {
                ps.setString(1, String.valueOf(kind.code));
                ps.setString(2, login);
                ps.setString(3, address);
                ps.setTimestamp(4, Timestamp.from(at));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    id = rs.getLong(1);
                }
            }
            if (Duration.between(lastForget, at).toMinutes() >= 1) {
                lastForget = at;
                try (PreparedStatement ps = c.prepareStatement(FORGET)) {
                    ps.setTimestamp(1, Timestamp.from(at.minus(LoginThrottle.FORGET_AFTER)));
                    ps.executeUpdate();
                }
            }
        }
        return id;
    }

    /** The events after {@code id}, oldest first, at most {@link #BATCH}. */
    public List<Event> since(long id) throws SQLException {
        List<Event> events = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(SINCE)) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    events.add(
                            new Event(
                                    rs.getLong(1),
                                    Kind.of(rs.getString(2)),
                                    rs.getString(3),
                                    rs.getString(4),
                                    rs.getTimestamp(5).toInstant()));
                }
            }
        }
        return events;
    }
}
