package com.editlock.lock.internal;

import static com.editlock.lock.internal.LockRows.bind;
import static com.editlock.lock.internal.LockStatements.*;

import com.editlock.lock.HandoverRefusedException;
import com.editlock.lock.HandoverRefusedException.Reason;
import com.editlock.lock.HandoverRequest;
import com.editlock.lock.Handovers;
import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockNotHeldException;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LostLock;
import com.editlock.lock.RetryTransientFailures;
import com.editlock.platform.Database;
import com.editlock.platform.PlainText;
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
import javax.sql.DataSource;

/**
 * {@link Handovers} in the {@code handover_request} table. Each step writes its history line in the
 * same statement (the lock event feed then tells every open page of the aggregate); the hand-over
 * itself locks the request row, then passes the lock through {@link JdbcLockManager#handOver} on
 * the same transaction, so a request is answered once and the lock passes with nobody in between.
 */
@ApplicationScoped
@RetryTransientFailures
public class JdbcHandovers implements Handovers {

    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    @Inject JdbcLockManager locks;

    @Inject Settings settings;

    /** Tests set a timeout shorter than the settings allow; otherwise the configured one. */
    Integer timeoutSeconds;

    @Override
    @Transactional(
            value = Transactional.TxType.REQUIRED,
            dontRollbackOn = HandoverRefusedException.class)
    public HandoverRequest ask(LockKey key, LockOwner asker, String view, String note) {
        String text = checked(note, "note");
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps =
                            bind(
                                    c.prepareStatement(HANDOVER_ASKED_LATELY),
                                    key.toString(),
                                    WINDOW_MINUTES,
                                    asker.login(),
                                    WINDOW_MINUTES);
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getInt(1) >= MAX_OPEN_PER_PERSON) {
                    throw new HandoverRefusedException(
                            Reason.TOO_MANY,
                            "You have "
                                    + MAX_OPEN_PER_PERSON
                                    + " requests waiting for an answer already; wait for one of"
                                    + " them first.");
                }
                if (rs.getInt(2) >= MAX_PER_RECORD_IN_WINDOW) {
                    throw new HandoverRefusedException(
                            Reason.TOO_MANY,
                            "You asked for "
                                    + key
                                    + " "
                                    + MAX_PER_RECORD_IN_WINDOW
                                    + " times in "
                                    + WINDOW_MINUTES
                                    + " minutes; give its holder some time before you ask"
                                    + " again.");
                }
            }
            List<HandoverRequest> asked =
                    requests(
                            c,
                            HANDOVER_ASK,
                            key.toString(),
                            asker.ownerId(),
                            asker.login(),
                            asker.ownerId(),
                            asker.login(),
                            asker.displayName(),
                            view,
                            text,
                            timeout());
            if (!asked.isEmpty()) {
                return asked.get(0);
            }
            Optional<Lock> holder = locks.holder(key);
            if (holder.isEmpty() || holder.get().mode() != com.editlock.lock.LockMode.WRITE) {
                throw new HandoverRefusedException(
                        Reason.NOBODY_HOLDS,
                        "Nobody is editing " + key + " now: open it for editing instead.");
            }
            if (holder.get().isHeldBy(asker.ownerId())
                    || holder.get().userLogin().equals(asker.login())) {
                throw new HandoverRefusedException(
                        Reason.YOURS,
                        "You are editing "
                                + key
                                + " yourself (in this or another window); nobody to ask.");
            }
            throw new HandoverRefusedException(
                    Reason.ALREADY_ASKED,
                    "You already asked "
                            + holder.get().displayName()
                            + " for "
                            + key
                            + "; wait for the answer.");
        } catch (SQLException e) {
            throw new com.editlock.lock.LockStoreException("ask for " + key, e);
        }
    }

    @Override
    @Transactional(
            value = Transactional.TxType.REQUIRED,
            dontRollbackOn = {HandoverRefusedException.class, LockNotHeldException.class})
    public HandoverRequest answer(long id, String holderOwnerId, boolean handOver, String reply) {
        String text = checked(reply, "reply");
        try (Connection c = dataSource.getConnection()) {
            HandoverRequest r = openOne(c, id, holderOwnerId, true);
            if (!handOver) {
                return requests(c, HANDOVER_DECLINE, "DECLINED", text, id).get(0);
            }
            try {
                locks.handOver(
                        r.key(),
                        r.holderOwnerId(),
                        r.holderToken(),
                        new LockOwner(r.askerOwnerId(), r.askerLogin(), r.askerName()),
                        r.askerView(),
                        r.note());
            } catch (LockNotHeldException e) {
                execute(c, HANDOVER_END, id);
                throw new HandoverRefusedException(
                        Reason.LOCK_ENDED,
                        "Not handed over: " + e.lost().map(LostLock::story).orElse(e.getMessage()));
            }
            execute(c, HANDOVER_HANDED_OVER, text, id);
            // The others who asked for this grant: it is gone, so their requests end with it. One
            // being answered right now (locked) ends in its own answer, which finds the grant gone;
            // waiting for it here would deadlock, as it waits for the aggregate this one holds.
            execute(c, HANDOVER_END_OTHERS, r.holderToken());
            return select(c, HANDOVER_BY_ID, id).get(0);
        } catch (SQLException e) {
            throw new com.editlock.lock.LockStoreException("answer request " + id, e);
        }
    }

    @Override
    @Transactional(
            value = Transactional.TxType.REQUIRED,
            dontRollbackOn = HandoverRefusedException.class)
    public HandoverRequest withdraw(long id, String askerOwnerId) {
        try (Connection c = dataSource.getConnection()) {
            openOne(c, id, askerOwnerId, false);
            return requests(c, HANDOVER_WITHDRAW, "WITHDRAWN", null, id).get(0);
        } catch (SQLException e) {
            throw new com.editlock.lock.LockStoreException("withdraw request " + id, e);
        }
    }

    @Override
    @Transactional(Transactional.TxType.REQUIRED)
    public void withdrawFromView(String askerOwnerId, String view) {
        try (Connection c = dataSource.getConnection()) {
            for (HandoverRequest r : select(c, HANDOVER_OPEN_FROM_VIEW, askerOwnerId, view)) {
                requests(c, HANDOVER_WITHDRAW, "WITHDRAWN", null, r.id());
            }
        } catch (SQLException e) {
            throw new com.editlock.lock.LockStoreException("withdraw a closed tab's requests", e);
        }
    }

    /**
     * The open request {@code id}, locked, if {@code ownerId} is its holder ({@code asHolder}) or
     * its asker; else why not. A request past its time is timed out here and refused.
     */
    private HandoverRequest openOne(Connection c, long id, String ownerId, boolean asHolder)
            throws SQLException {
        List<HandoverRequest> found = select(c, HANDOVER_BY_ID_LOCKED, id);
        HandoverRequest r = found.isEmpty() ? null : found.get(0);
        if (r == null || !(r.holderOwnerId().equals(ownerId) || r.askerOwnerId().equals(ownerId))) {
            throw new HandoverRefusedException(
                    Reason.UNKNOWN, "There is no request " + id + " for you.");
        }
        String mine = asHolder ? r.holderOwnerId() : r.askerOwnerId();
        if (!mine.equals(ownerId)) {
            throw new HandoverRefusedException(
                    Reason.NOT_YOURS,
                    asHolder
                            ? "Only " + r.holderName() + ", who holds the lock, answers this."
                            : "Only " + r.askerName() + ", who asked, may withdraw this.");
        }
        if (r.isOpen() && !r.expiresAt().isAfter(Instant.now())) {
            requests(c, HANDOVER_TIME_OUT_ONE, id);
            r = select(c, HANDOVER_BY_ID, id).get(0);
        }
        if (!r.isOpen()) {
            throw new HandoverRefusedException(
                    Reason.NOT_OPEN,
                    "This request is no longer open: "
                            + (asHolder ? r.holderSentence() : r.askerSentence())
                            + (r.answeredAt() == null
                                    ? ""
                                    : " (" + CLOCK.format(r.answeredAt()) + ")"));
        }
        return r;
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<HandoverRequest> find(long id, String ownerId) {
        return select(HANDOVER_FOR_PARTY, id, ownerId, ownerId).stream().findFirst();
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<HandoverRequest> openTo(long holderToken) {
        return select(HANDOVER_OPEN_TO, holderToken);
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<HandoverRequest> latest(String askerOwnerId, LockKey key) {
        return select(HANDOVER_LATEST, askerOwnerId, key.toString()).stream().findFirst();
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<HandoverRequest> openFor(Collection<LockKey> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        try (Connection c = dataSource.getConnection()) {
            return select(
                    c,
                    HANDOVER_OPEN_FOR,
                    c.createArrayOf("varchar", keys.stream().map(LockKey::toString).toArray()));
        } catch (SQLException e) {
            throw new com.editlock.lock.LockStoreException("read open requests", e);
        }
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public int expire() {
        try (Connection c = dataSource.getConnection()) {
            int timedOut;
            try (PreparedStatement ps = c.prepareStatement(HANDOVER_TIME_OUT);
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                timedOut = rs.getInt(1);
            }
            execute(c, HANDOVER_END_ORPHANS);
            return timedOut;
        } catch (SQLException e) {
            throw new com.editlock.lock.LockStoreException("time out requests", e);
        }
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public int purge(int days) {
        try (Connection c = dataSource.getConnection()) {
            return execute(c, HANDOVER_PURGE, days);
        } catch (SQLException e) {
            throw new com.editlock.lock.LockStoreException("purge requests", e);
        }
    }

    private int timeout() {
        return timeoutSeconds != null ? timeoutSeconds : settings.handoverTimeoutSeconds();
    }

    private static String checked(String text, String what) {
        if (text == null || text.isBlank()) {
            return null;
        }
        if (text.length() > MAX_TEXT) {
            throw new IllegalArgumentException(
                    "The " + what + " is too long: at most " + MAX_TEXT + " characters.");
        }
        String broken = PlainText.problem(text);
        if (broken != null) {
            throw new IllegalArgumentException("The " + what + " " + broken);
        }
        return text.strip();
    }

    private List<HandoverRequest> select(String statement, Object... params) {
        try (Connection c = dataSource.getConnection()) {
            return select(c, statement, params);
        } catch (SQLException e) {
            throw new com.editlock.lock.LockStoreException("read requests", e);
        }
    }

    private static List<HandoverRequest> select(Connection c, String statement, Object... params)
            throws SQLException {
        return requests(c, statement, params);
    }

    private static int execute(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = bind(c.prepareStatement(sql), params)) {
            return ps.executeUpdate();
        }
    }

    private static List<HandoverRequest> requests(Connection c, String sql, Object... params)
            throws SQLException {
        try (PreparedStatement ps = bind(c.prepareStatement(sql), params);
                ResultSet rs = ps.executeQuery()) {
            List<HandoverRequest> found = new ArrayList<>();
            while (rs.next()) {
                if (rs.getMetaData().getColumnCount() == 1) {
                    continue; // a count
                }
                found.add(
                        new HandoverRequest(
                                rs.getLong("id"),
                                LockKey.parse(rs.getString("resource_key")),
                                rs.getString("holder_owner_id"),
                                rs.getString("holder_login"),
                                rs.getString("holder_name"),
                                rs.getLong("holder_token"),
                                rs.getString("asker_owner_id"),
                                rs.getString("asker_login"),
                                rs.getString("asker_name"),
                                rs.getString("asker_view"),
                                rs.getString("note"),
                                HandoverRequest.State.valueOf(rs.getString("state")),
                                rs.getString("reply"),
                                instant(rs.getTimestamp("asked_at")),
                                instant(rs.getTimestamp("expires_at")),
                                instant(rs.getTimestamp("answered_at"))));
            }
            return found;
        }
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
