package com.editlock.configurator;

import com.editlock.lock.LockKey;
import com.editlock.platform.Database;
import com.editlock.platform.Settings;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Unsaved drafts: what a person typed on an editing screen and has not saved, kept per person and
 * record in {@code edit_draft} (never in the record), so that it survives whatever ends the edit —
 * a crash, a force release, a lapsed lease, a session timeout, a server restart.
 *
 * <ul>
 *   <li>The page sends its form's fields (name to value) as the person types, with the values the
 *       page showed when it opened (the base), so that opening the record again can say which
 *       fields someone else changed since.
 *   <li>Only its author reads, restores or discards a draft: every call names the caller's own
 *       login, never another's.
 *   <li>A successful save of the record deletes the saver's draft of it; drafts untouched for
 *       {@code locks.draft.retention.days} are purged ({@link DraftPurge}).
 *   <li>A draft is at most {@code locks.max.draft.bytes} characters (fields and base together).
 * </ul>
 */
@ApplicationScoped
public class Drafts {

    /** A kept draft: its fields and base as JSON objects of strings, and when it was last saved. */
    public record Draft(String fields, String base, Instant savedAt) {}

    /** A draft beyond its bound; nothing was stored. */
    public static final class TooLargeException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooLargeException(String message) {
            super(message);
        }
    }

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    @Inject Settings settings;

    /** Keeps {@code fields} (and {@code base}) as {@code login}'s draft of {@code key}. */
    public Instant save(String login, LockKey key, String fields, String base) {
        int size = fields.length() + base.length();
        if (size > settings.maxDraftBytes()) {
            throw new TooLargeException(
                    "This draft has "
                            + size
                            + " characters; at most "
                            + settings.maxDraftBytes()
                            + " are kept. Save your changes instead.");
        }
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "insert into edit_draft (user_login, resource_key, fields, base) "
                                        + "values (?, ?, ?, ?) on conflict (user_login, resource_key) "
                                        + "do update set fields = excluded.fields, base = excluded.base, "
                                        + "saved_at = now() returning saved_at")) {
            ps.setString(1, login);
            ps.setString(2, key.toString());
            ps.setString(3, fields);
            ps.setString(4, base);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getTimestamp(1).toInstant();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not keep a draft: " + e.getMessage(), e);
        }
    }

    /** {@code login}'s own draft of {@code key}, if any. */
    public Optional<Draft> find(String login, LockKey key) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select fields, base, saved_at from edit_draft "
                                        + "where user_login = ? and resource_key = ?")) {
            ps.setString(1, login);
            ps.setString(2, key.toString());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? Optional.of(
                                new Draft(
                                        rs.getString(1),
                                        rs.getString(2),
                                        rs.getTimestamp(3).toInstant()))
                        : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read a draft: " + e.getMessage(), e);
        }
    }

    /** Deletes {@code login}'s draft of {@code key}; false when there was none. */
    public boolean delete(String login, LockKey key) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "delete from edit_draft where user_login = ? and resource_key = ?")) {
            ps.setString(1, login);
            ps.setString(2, key.toString());
            return ps.executeUpdate() > 0;
        } catch (SQLException e) {
            throw new IllegalStateException("Could not delete a draft: " + e.getMessage(), e);
        }
    }

    /** Deletes drafts untouched for the retention period; how many. */
    public int purge() {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "delete from edit_draft where saved_at < now() - make_interval(days => ?)")) {
            ps.setInt(1, settings.draftRetentionDays());
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not purge old drafts: " + e.getMessage(), e);
        }
    }
}
