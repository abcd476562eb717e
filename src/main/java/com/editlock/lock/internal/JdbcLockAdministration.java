package com.editlock.lock.internal;

import static com.editlock.lock.internal.LockRows.bind;

import com.editlock.lock.HistoryQuery;
import com.editlock.lock.Lock;
import com.editlock.lock.LockAdministration;
import com.editlock.lock.LockEvent;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockPage;
import com.editlock.lock.LockQuery;
import com.editlock.lock.LockStoreException;
import com.editlock.lock.LockSummary;
import com.editlock.lock.RetryTransientFailures;
import com.editlock.platform.Database;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The administrators' face of the lock store, on the same tables, statements ({@link
 * LockStatements}) and audited delete ({@link LockRows#deleteAndAudit}) as the protocol's ({@link
 * JdbcLockManager}). Reads join the caller's transaction when there is one and otherwise run
 * autocommitted; a force release is one statement that deletes and audits; the retention purge
 * commits each batch on its own.
 */
@ApplicationScoped
@RetryTransientFailures
public class JdbcLockAdministration implements LockAdministration {

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    /** How many history lines one purge batch deletes; tests make it small. */
    int purgeBatch = JdbcLockManager.SWEEP_BATCH;

    private static final Map<LockQuery.Sort, String> SORT_COLUMNS =
            Map.of(
                    LockQuery.Sort.RESOURCE,
                    "resource_key",
                    LockQuery.Sort.MODE,
                    "mode",
                    LockQuery.Sort.HOLDER,
                    "display_name",
                    LockQuery.Sort.ACQUIRED,
                    "acquired_at",
                    LockQuery.Sort.RENEWED,
                    "renewed_at",
                    LockQuery.Sort.EXPIRES,
                    "expires_at",
                    LockQuery.Sort.TOKEN,
                    "fencing_token");

    private static final Map<LockKey.Kind, String> KIND_PATTERNS =
            Map.of(
                    LockKey.Kind.CONFIGURATOR, "^configurator:[0-9]+$",
                    LockKey.Kind.CONFIGURATOR_VARIABLES, "^configurator:[0-9]+:variables$",
                    LockKey.Kind.ITEM_FILTERS, "^item:[0-9]+:filters$");

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public LockPage<Lock> find(LockQuery q) {
        String user =
                q.user() == null
                        ? null
                        : "%"
                                + q.user()
                                        .replace("\\", "\\\\")
                                        .replace("%", "\\%")
                                        .replace("_", "\\_")
                                + "%";
        String kind = q.kind() == null ? null : KIND_PATTERNS.get(q.kind());
        Object[] filter = {user, user, user, kind, kind, q.minAgeSeconds(), q.minAgeSeconds()};
        long total = LockRows.count(dataSource, LockStatements.FIND_COUNT, filter);
        return new LockPage<>(
                LockRows.query(
                        dataSource,
                        LockStatements.findPage(SORT_COLUMNS.get(q.sort()), q.descending()),
                        paged(filter, q.limit(), q.offset())),
                total);
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public LockSummary summary() {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(LockStatements.SUMMARY);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            Timestamp oldest = rs.getTimestamp(4);
            return new LockSummary(
                    rs.getLong(1),
                    rs.getLong(2),
                    rs.getLong(3),
                    oldest == null ? null : oldest.toInstant());
        } catch (SQLException e) {
            throw new LockStoreException("sum up the locks", e);
        }
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<Lock> forceRelease(LockKey key, String adminLogin, String reason) {
        return forced(
                LockStatements.FORCE_RELEASE,
                adminLogin,
                LockRows.checkedReason(reason, key.toString(), MAX_REASON),
                key.toString());
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<Lock> forceRelease(Collection<LockKey> keys, String adminLogin, String reason) {
        String why = LockRows.checkedReason(reason, keys.size() + " locks", MAX_REASON);
        List<Lock> released = new ArrayList<>();
        for (LockKey key : keys) {
            released.addAll(forced(LockStatements.FORCE_RELEASE, adminLogin, why, key.toString()));
        }
        return released;
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<Lock> forceReleaseAllOf(String userLogin, String adminLogin, String reason) {
        return forced(
                LockStatements.FORCE_RELEASE_USER,
                adminLogin,
                LockRows.checkedReason(reason, "everything " + userLogin + " holds", MAX_REASON),
                userLogin);
    }

    /** One force-release statement, audited with the admin and the (checked) reason. */
    private List<Lock> forced(String statement, String adminLogin, String why, String condition) {
        return LockRows.deleteAndAudit(
                dataSource, statement, LockEventType.FORCE_RELEASED, adminLogin, why, condition);
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public LockPage<LockEvent> history(HistoryQuery q) {
        String resource = q.resource() == null ? null : q.resource().toString();
        String type = q.type() == null ? null : q.type().name();
        Timestamp from = q.from() == null ? null : Timestamp.from(q.from());
        Timestamp until = q.until() == null ? null : Timestamp.from(q.until());
        Object[] filter = {
            resource, resource, q.user(), q.user(), q.user(), type, type, from, from, until, until
        };
        long total = LockRows.count(dataSource, LockStatements.HISTORY_COUNT, filter);
        return new LockPage<>(
                LockRows.events(
                        dataSource,
                        LockStatements.HISTORY_PAGE,
                        paged(filter, q.limit(), q.offset())),
                total);
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<LockEvent> history(LockKey key, int limit) {
        String resource = key == null ? null : key.toString();
        return LockRows.events(
                dataSource,
                LockStatements.HISTORY,
                resource,
                resource,
                Math.max(1, Math.min(limit, 1000)));
    }

    @Override
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public long purgeHistory(int days) {
        long purged = 0;
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        bind(
                                c.prepareStatement(LockStatements.PURGE_HISTORY_BATCH),
                                days,
                                purgeBatch)) {
            int deleted;
            do {
                deleted = ps.executeUpdate();
                purged += deleted;
            } while (deleted == purgeBatch);
            return purged;
        } catch (SQLException e) {
            throw new LockStoreException(
                    "purge old history (" + purged + " lines purged before the failure)", e);
        }
    }

    private static Object[] paged(Object[] filter, int limit, int offset) {
        Object[] page = Arrays.copyOf(filter, filter.length + 2);
        page[filter.length] = limit;
        page[filter.length + 1] = offset;
        return page;
    }
}
