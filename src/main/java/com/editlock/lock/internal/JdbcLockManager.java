package com.editlock.lock.internal;

import static com.editlock.lock.internal.LockRows.bind;

import com.editlock.lock.Beat;
import com.editlock.lock.Lock;
import com.editlock.lock.LockAdministration;
import com.editlock.lock.LockEvent;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockLimitException;
import com.editlock.lock.LockManager;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockNotHeldException;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LockStoreException;
import com.editlock.lock.LockUnavailableException;
import com.editlock.lock.LostLock;
import com.editlock.lock.ResourceCatalog;
import com.editlock.lock.RetryTransientFailures;
import com.editlock.platform.Database;
import com.editlock.platform.Settings;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * The lock store: plain SQL ({@link LockStatements}) on the application's JTA data source, so that
 * a save's fencing check and its writes share one transaction. The protocol relies on READ
 * COMMITTED (each statement sees every grant committed before it starts); the data source is set to
 * it and the application refuses to start on another level.
 *
 * <p>Acquiring is one short transaction and, when the lock is free, one round trip: one prepared
 * text of several statements that PostgreSQL runs in order, each with a fresh snapshot.
 *
 * <ol>
 *   <li>{@code pg_advisory_xact_lock} on each aggregate involved, in key order: acquisitions inside
 *       one aggregate are serialized, other aggregates proceed in parallel. It is a statement of
 *       its own so that every later statement sees every grant committed before the lock was
 *       obtained.
 *   <li>The aggregates' lapsed rows are deleted and audited as expired: the only place an
 *       acquisition judges expiry.
 *   <li>One statement grants every requested key or none, unless another owner has a conflicting
 *       row (a row blocks until it is deleted, lapsed or not), and audits each grant. The partial
 *       unique index on WRITE rows stays the database's own guarantee of one writer per key.
 * </ol>
 *
 * Nothing granted: a second round trip reads who is in the way. Someone live: the refusal is
 * audited and thrown. Only lapsed rows (they lapsed after the clean-up) or nobody (released
 * meanwhile): try again, and the next clean-up deletes them.
 *
 * <p><b>Transactions.</b> Every change is one statement (or, for a grant, one text of several
 * statements), so the methods join the caller's transaction when there is one ({@code SUPPORTS}: a
 * screen opening a record takes the lock and loads it in one transaction) and otherwise run
 * autocommitted, saving the round trip of a separate commit: an API acquire + release is two round
 * trips, as for a bare lock table. PostgreSQL runs a text of several statements sent together as
 * one implicit transaction, so the advisory lock of the first statement still covers the clean-up
 * and the grant; the contract suite checks that the lock is held while the clean-up waits. Outside
 * a transaction, the refusal path's extra reads see a fresh state; a grant that slips in between
 * only changes who is named in the refusal.
 *
 * <p>Releases delete and audit in one statement. The sweep commits each batch on its own, so a
 * backlog never holds rows locked for long. Deadlocks and serialization failures are retried where
 * the transaction begins ({@link RetryTransientFailures}); anything else the database says is a
 * {@link LockStoreException}.
 */
@ApplicationScoped
@RetryTransientFailures
public class JdbcLockManager implements LockManager {

    static final int SWEEP_BATCH = 500;

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    @Inject ResourceCatalog catalog;

    @Inject Settings settings;

    /** This node's feed, told of a release once it has committed; none in the store's tests. */
    @Inject LockEventFeed feed;

    @Resource jakarta.transaction.TransactionSynchronizationRegistry transactions;

    /** Tests set a lease shorter than the settings allow; otherwise the configured one. */
    Duration lease;

    /**
     * Tests set a maximum lock age shorter than the settings allow; otherwise the configured one.
     */
    Duration maxAge;

    int sweepBatch = SWEEP_BATCH;

    /**
     * How often a grant is tried when the locks that refused it are gone by the time they are
     * looked up.
     */
    static final int GRANT_ATTEMPTS = 20;

    @Override
    @Transactional(
            value = Transactional.TxType.SUPPORTS,
            dontRollbackOn = {LockUnavailableException.class, LockLimitException.class})
    public Lock acquire(LockKey key, LockMode mode, LockOwner owner, String view) {
        return acquireAll(List.of(key), mode, owner, view).get(0);
    }

    @Override
    @Transactional(
            value = Transactional.TxType.SUPPORTS,
            dontRollbackOn = {LockUnavailableException.class, LockLimitException.class})
    public List<Lock> acquireAll(
            Collection<LockKey> keys, LockMode mode, LockOwner owner, String view) {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("At least one resource key is needed.");
        }
        TreeMap<LockKey, LockKey> aggregateOf = new TreeMap<>();
        for (LockKey key : new TreeSet<>(keys)) {
            aggregateOf.put(key, catalog.aggregateOf(key));
        }
        try (Connection c = dataSource.getConnection()) {
            // A refused grant whose conflict is gone when looked at is tried again: the holder
            // released in between
            // (each statement sees the latest commits). Under heavy contention that can happen a
            // few times in a row
            // (seen three times in a row in a CI run's race test); twenty in a row means something
            // is wrong.
            for (int attempt = 0; attempt < GRANT_ATTEMPTS; attempt++) {
                List<Lock> granted = grantAll(c, aggregateOf, mode, owner, view);
                if (granted.size() == aggregateOf.size()) {
                    return granted;
                }
                overCap(c, aggregateOf.keySet(), owner);
                for (var entry : aggregateOf.entrySet()) {
                    List<Lock> live =
                            liveConflicts(
                                    c, entry.getKey(), entry.getValue(), mode, owner.ownerId());
                    if (!live.isEmpty()) {
                        try (PreparedStatement ps =
                                c.prepareStatement(LockStatements.AUDIT_DENIAL)) {
                            bind(
                                            ps,
                                            entry.getKey().toString(),
                                            owner.ownerId(),
                                            mode.name(),
                                            entry.getKey().toString(),
                                            entry.getValue().toString(),
                                            mode.name(),
                                            owner.ownerId(),
                                            owner.login(),
                                            owner.displayName())
                                    .executeUpdate();
                        }
                        throw new LockUnavailableException(entry.getKey(), live);
                    }
                }
            }
            throw new IllegalStateException(
                    GRANT_ATTEMPTS
                            + " grants of "
                            + keys
                            + " in a row were refused by "
                            + "locks that were gone when looked at (lapsed rows the clean-up did not delete?).");
        } catch (SQLException e) {
            throw new LockStoreException("acquire " + keys, e);
        }
    }

    /** Serialize, clean up, grant all or none: one round trip. */
    private List<Lock> grantAll(
            Connection c,
            TreeMap<LockKey, LockKey> aggregateOf,
            LockMode mode,
            LockOwner owner,
            String view)
            throws SQLException {
        TreeSet<LockKey> aggregates = new TreeSet<>(aggregateOf.values());
        StringBuilder sql = new StringBuilder();
        List<Object> params = new ArrayList<>();
        for (LockKey aggregate : aggregates) {
            sql.append(LockStatements.SERIALIZE_AGGREGATE)
                    .append(";\n")
                    .append(LockStatements.CLEAN_UP_AGGREGATE)
                    .append(";\n");
            params.add(aggregate.toString());
            params.add(aggregate.toString());
        }
        sql.append(LockStatements.grantAll(aggregateOf.size()));
        aggregateOf.forEach(
                (key, aggregate) -> {
                    params.add(key.toString());
                    params.add(aggregate.toString());
                });
        params.addAll(List.of(owner.ownerId(), mode.name(), mode.name(), owner.ownerId()));
        params.add(view);
        params.addAll(List.of(owner.login(), owner.displayName(), leaseSeconds()));
        params.addAll(List.of(owner.ownerId(), settings.maxLocksPerSession()));
        params.add(maxAgeSeconds());
        try (PreparedStatement ps = bind(c.prepareStatement(sql.toString()), params.toArray())) {
            // The results come in statement order; the grant's rows are the last result set.
            List<Lock> granted = List.of();
            for (boolean isResultSet = ps.execute();
                    isResultSet || ps.getUpdateCount() != -1;
                    isResultSet = ps.getMoreResults()) {
                if (isResultSet) {
                    try (ResultSet rs = ps.getResultSet()) {
                        if (rs.getMetaData().getColumnCount() > 1) {
                            granted = LockRows.locks(rs);
                        }
                    }
                }
            }
            return granted;
        }
    }

    /** Throws when the grant failed because the session would hold more locks than allowed. */
    private void overCap(Connection c, Collection<LockKey> keys, LockOwner owner)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(LockStatements.HELD_APART_FROM)) {
            ps.setString(1, owner.ownerId());
            ps.setArray(
                    2, c.createArrayOf("varchar", keys.stream().map(LockKey::toString).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getLong(1) + keys.size() > settings.maxLocksPerSession()) {
                    throw new LockLimitException(
                            settings.maxLocksPerSession(),
                            Settings.environmentName(Settings.MAX_LOCKS_PER_SESSION));
                }
            }
        }
    }

    private static List<Lock> liveConflicts(
            Connection c, LockKey key, LockKey aggregate, LockMode mode, String ownerId)
            throws SQLException {
        try (PreparedStatement ps =
                        bind(
                                c.prepareStatement(LockStatements.CONFLICTS),
                                aggregate.toString(),
                                ownerId,
                                mode.name(),
                                key.toString(),
                                key.toString());
                ResultSet rs = ps.executeQuery()) {
            List<Lock> live = new ArrayList<>();
            while (rs.next()) {
                if (rs.getBoolean("live")) {
                    live.add(LockRows.lock(rs));
                }
            }
            return live;
        }
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public boolean release(LockKey key, String ownerId, String view) {
        return !committed(
                        keys(
                                LockRows.deleteAndAudit(
                                        dataSource,
                                        LockStatements.RELEASE,
                                        LockEventType.RELEASED,
                                        null,
                                        null,
                                        key.toString(),
                                        ownerId,
                                        view,
                                        view)))
                .isEmpty();
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<LockKey> releaseView(String ownerId, String view) {
        return committed(
                keys(
                        LockRows.deleteAndAudit(
                                dataSource,
                                LockStatements.RELEASE_VIEW,
                                LockEventType.VIEW_CLOSED,
                                null,
                                null,
                                ownerId,
                                view)));
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<LockKey> releaseAll(String ownerId) {
        return committed(
                keys(
                        LockRows.deleteAndAudit(
                                dataSource,
                                LockStatements.RELEASE_ALL,
                                LockEventType.SESSION_ENDED,
                                null,
                                null,
                                ownerId)));
    }

    /**
     * Tells this node's feed of released locks once they are committed (at once outside a
     * transaction, after its commit inside one), so that this node's open pages hear of the freedom
     * without waiting for the feed's next poll.
     */
    private List<LockKey> committed(List<LockKey> released) {
        if (feed == null || released.isEmpty()) {
            return released;
        }
        if (transactions != null && transactions.getTransactionKey() != null) {
            transactions.registerInterposedSynchronization(
                    new jakarta.transaction.Synchronization() {
                        @Override
                        public void beforeCompletion() {}

                        @Override
                        public void afterCompletion(int status) {
                            feed.readNow();
                        }
                    });
        } else {
            feed.readNow();
        }
        return released;
    }

    /**
     * Releases every lock a session holds, whoever's, as each session's end would ({@code
     * SESSION_ENDED}); API tokens keep theirs. For the last node of a data grid when it stops: its
     * sessions end with it, and their {@link com.editlock.lock.LockRemover}s never run.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<LockKey> releaseEverySession() {
        return keys(
                LockRows.deleteAndAudit(
                        dataSource,
                        LockStatements.RELEASE_SESSIONS,
                        LockEventType.SESSION_ENDED,
                        null,
                        null));
    }

    /**
     * One transaction, one connection: the aggregate's advisory lock first (a third acquirer waits
     * behind it, then finds the taker's row), then the others' rows on the key deleted and audited,
     * then the ordinary grant. Others' locks besides those on the key (a part of the whole, the
     * whole of a part) refuse it before anything is deleted.
     */
    @Override
    @Transactional(Transactional.TxType.REQUIRED)
    public Lock takeOver(
            LockKey key, LockOwner taker, String view, String actorLogin, String reason) {
        String why = LockRows.checkedReason(reason, key.toString(), LockAdministration.MAX_REASON);
        return passOn(
                key,
                taker,
                view,
                c -> {
                    try (PreparedStatement ps =
                                    bind(
                                            c.prepareStatement(LockStatements.TAKE_FROM),
                                            key.toString(),
                                            taker.ownerId(),
                                            LockEventType.TAKEN_OVER.name(),
                                            actorLogin,
                                            why);
                            ResultSet rs = ps.executeQuery()) {
                        LockRows.locks(rs);
                    }
                });
    }

    /**
     * As the take-over, but only the holder's grant (by its token) goes, audited {@code
     * HANDED_OVER} with the receiver as actor and the request's note; when that grant is no longer
     * live, nothing changes.
     */
    @Transactional(
            value = Transactional.TxType.REQUIRED,
            dontRollbackOn = LockNotHeldException.class)
    public Lock handOver(
            LockKey key,
            String holderOwnerId,
            long holderToken,
            LockOwner receiver,
            String view,
            String note) {
        return passOn(
                key,
                receiver,
                view,
                c -> {
                    List<Lock> gone;
                    try (PreparedStatement ps =
                                    bind(
                                            c.prepareStatement(LockStatements.HAND_FROM),
                                            key.toString(),
                                            holderOwnerId,
                                            holderToken,
                                            LockEventType.HANDED_OVER.name(),
                                            receiver.login(),
                                            note);
                            ResultSet rs = ps.executeQuery()) {
                        gone = LockRows.locks(rs);
                    }
                    if (gone.isEmpty()) {
                        throw new LockNotHeldException(howItEnded(key, holderToken));
                    }
                });
    }

    /** What a take-over or a hand-over does to the holder's rows, on the caller's connection. */
    private interface Release {
        void run(Connection c) throws SQLException;
    }

    /**
     * Passes {@code key} to {@code receiver} in one transaction on one connection: the aggregate's
     * advisory lock, the refusal when others' locks besides those on the key stand in the way,
     * {@code release}, then one grant. Under the advisory lock nobody else is granted anything in
     * the aggregate and nothing of others' stands in the way any more, so a refused grant is a
     * defect: the exception rolls the release back with the transaction.
     */
    private Lock passOn(LockKey key, LockOwner receiver, String view, Release release) {
        TreeMap<LockKey, LockKey> aggregateOf = new TreeMap<>();
        aggregateOf.put(key, catalog.aggregateOf(key));
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps =
                    bind(
                            c.prepareStatement(LockStatements.SERIALIZE_AGGREGATE),
                            aggregateOf.get(key).toString())) {
                ps.execute();
            }
            List<Lock> besides =
                    liveConflicts(c, key, aggregateOf.get(key), LockMode.WRITE, receiver.ownerId())
                            .stream()
                            .filter(l -> !l.key().equals(key))
                            .toList();
            if (!besides.isEmpty()) {
                throw new LockUnavailableException(key, besides);
            }
            release.run(c);
            List<Lock> granted = grantAll(c, aggregateOf, LockMode.WRITE, receiver, view);
            if (granted.size() != 1) {
                throw new IllegalStateException(
                        "Passing " + key + " on released its holders but was not granted.");
            }
            return granted.get(0);
        } catch (SQLException e) {
            throw new LockStoreException("pass on " + key, e);
        }
    }

    /**
     * Extends the leases of the owner's locks ({@code view == null}: all of them, else that tab's)
     * now. Returns the number of renewed locks.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public int renew(String ownerId, String view) {
        return renew(List.of(Beat.now(ownerId, view)))[0];
    }

    /**
     * Extends, in one statement, the leases of every beating tab (or session): each lock to a lease
     * after its own beat ({@link Beat#ago()}), never shorter than it was and never past its maximum
     * age. A lapsed lock that nobody has taken or swept yet is renewed too, and audited as such: a
     * row blocks every conflicting grant until it is deleted, so nobody can have been granted
     * anything beside it. Returns, per beat, the number of locks it renewed. The node's heartbeats
     * ({@link NodeHeartbeats}) call it once a round.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public int[] renew(List<Beat> beats) {
        int[] renewed = new int[beats.size()];
        if (beats.isEmpty()) {
            return renewed;
        }
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(LockStatements.RENEW)) {
            ps.setArray(1, c.createArrayOf("varchar", beats.stream().map(Beat::ownerId).toArray()));
            ps.setArray(2, c.createArrayOf("varchar", beats.stream().map(Beat::view).toArray()));
            ps.setArray(
                    3,
                    c.createArrayOf(
                            "bigint", beats.stream().map(b -> b.ago().toMillis()).toArray()));
            ps.setDouble(4, maxAgeSeconds());
            ps.setDouble(5, leaseSeconds());
            ps.setDouble(6, maxAgeSeconds());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    renewed[rs.getInt(1) - 1] = rs.getInt(2);
                }
            }
            return renewed;
        } catch (SQLException e) {
            throw new LockStoreException("renew the leases of " + beats.size() + " heartbeats", e);
        }
    }

    @Override
    @Transactional(Transactional.TxType.MANDATORY)
    public Lock verify(LockKey key, String ownerId, long fencingToken) {
        List<Lock> mine = query(LockStatements.VERIFY, key.toString(), ownerId, fencingToken);
        if (mine.isEmpty()) {
            throw new LockNotHeldException(howItEnded(key, fencingToken));
        }
        if (mine.get(0).mode() != LockMode.WRITE) {
            throw new LockNotHeldException(LostLock.readOnly(key));
        }
        return mine.get(0);
    }

    /** Each batch is a transaction of its own: nothing stays locked while the next batch runs. */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public List<LockKey> sweepExpired() {
        List<LockKey> swept = new ArrayList<>();
        try (Connection c = dataSource.getConnection()) {
            int deleted;
            do {
                try (PreparedStatement ps =
                                bind(c.prepareStatement(LockStatements.SWEEP_BATCH), sweepBatch);
                        ResultSet rs = ps.executeQuery()) {
                    deleted = 0;
                    while (rs.next()) {
                        swept.add(LockKey.parse(rs.getString(1)));
                        deleted++;
                    }
                }
            } while (deleted == sweepBatch);
            return swept;
        } catch (SQLException e) {
            throw new LockStoreException(
                    "sweep lapsed locks (" + swept.size() + " swept before the failure)", e);
        }
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<Lock> holder(LockKey key) {
        return query(LockStatements.HOLDER, key.toString()).stream().findFirst();
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<Lock> locksIn(LockKey aggregate) {
        return query(LockStatements.LOCKS_IN, aggregate.toString());
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<Lock> locksIn(Collection<LockKey> aggregates) {
        if (aggregates.isEmpty()) {
            return List.of();
        }
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(LockStatements.LOCKS_IN_ANY)) {
            ps.setArray(
                    1,
                    c.createArrayOf(
                            "varchar", aggregates.stream().map(LockKey::toString).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                return LockRows.locks(rs);
            }
        } catch (SQLException e) {
            throw new LockStoreException("read the locks of a list", e);
        }
    }

    @Override
    @Transactional // its queries share one connection
    public Optional<LostLock> lost(Lock held) {
        if (!query(
                        LockStatements.STILL_HELD,
                        held.key().toString(),
                        held.ownerId(),
                        held.fencingToken())
                .isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(howItEnded(held.key(), held.fencingToken()));
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<Lock> locksOf(String ownerId) {
        return query(LockStatements.LOCKS_OF, ownerId);
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<LockEvent> lastEnding(LockKey key) {
        return LockRows.events(dataSource, LockStatements.LAST_ENDING, key.toString()).stream()
                .findFirst();
    }

    private LostLock howItEnded(LockKey key, long fencingToken) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        bind(
                                c.prepareStatement(LockStatements.HOW_IT_ENDED),
                                key.toString(),
                                fencingToken);
                ResultSet rs = ps.executeQuery()) {
            Optional<Lock> now = holder(key);
            if (!rs.next()) {
                return new LostLock(key, null, null, null, false, now);
            }
            return new LostLock(
                    key,
                    LockEventType.valueOf(rs.getString(1)),
                    rs.getString(2),
                    rs.getString(3),
                    false,
                    now);
        } catch (SQLException e) {
            throw new LockStoreException("find out how a lock ended", e);
        }
    }

    private List<Lock> query(String sql, Object... params) {
        return LockRows.query(dataSource, sql, params);
    }

    private static List<LockKey> keys(List<Lock> locks) {
        return locks.stream().map(Lock::key).toList();
    }

    private double maxAgeSeconds() {
        return maxAge != null ? maxAge.toMillis() / 1000.0 : settings.maxLockAgeMinutes() * 60.0;
    }

    private double leaseSeconds() {
        return lease != null ? lease.toMillis() / 1000.0 : settings.leaseSeconds();
    }
}
