package com.editlock.lock.internal;

import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The torture test's judge. It does not reuse the store's SQL and does not take the audit history on trust: it starts
 * from what the clients were told, and uses the history only for what no client sees (when another party deleted a
 * lock), checking the history against the clients where both know the same thing.
 * <ol>
 * <li><b>Never two writers:</b> a lock is live from its grant until its row is deleted (a lapsed row still blocks
 * everyone until then). No two locks of different owners on conflicting resources (the same key, or an aggregate and
 * anything inside it), one of them WRITE, may be live at the same instant.</li>
 * <li><b>No save on a dead token:</b> every save a client was told was accepted happened while its token's lock was
 * live, in WRITE mode, and before its lease ran out as far as the client could know (the grant's expiry, or a
 * heartbeat's end plus the lease).</li>
 * <li><b>Every release audited, and the history adds up:</b> every grant a client saw is in the history; every release
 * a client made is there with a time inside the call (a lock a screen left — Done, Save — has ended by the end of the
 * call, by that call or before it); replaying the history (grants add, releases remove) never
 * releases what was not granted and ends with exactly the rows left in {@code app_lock}.</li>
 * </ol>
 * Times are the database's clock; the JVM's clock brackets the client calls (same machine, same clock).
 */
public final class TortureChecker {

    /**
     * Instants closer than this are not told apart: the JVM and the database read one clock at slightly different
     * moments (a statement's time is taken when it starts, a release becomes visible when it commits).
     */
    private static final Duration SLACK = Duration.ofMillis(2);

    /** What the clients were told; thread-safe. */
    public static final class Observations {
        final Map<Long, List<Lock>> grants = new ConcurrentHashMap<>();
        final Map<String, ConcurrentLinkedQueue<Instant[]>> renewals = new ConcurrentHashMap<>();
        final Map<Long, Instant[]> releases = new ConcurrentHashMap<>();
        final Map<Long, Instant[]> left = new ConcurrentHashMap<>();
        final ConcurrentLinkedQueue<Object[]> saves = new ConcurrentLinkedQueue<>();

        public void granted(Lock lock) {
            grants.computeIfAbsent(lock.fencingToken(), t -> java.util.Collections.synchronizedList(new ArrayList<>()))
                    .add(lock);
        }

        public void renewed(String ownerId, Instant before, Instant after, int count) {
            if (count > 0) {
                renewals.computeIfAbsent(ownerId, o -> new ConcurrentLinkedQueue<>())
                        .add(new Instant[] {before, after});
            }
        }

        public void released(long token, Instant before, Instant after) {
            releases.put(token, new Instant[] {before, after});
        }

        /**
         * The client left the lock and was told only that it no longer holds it — a screen's Done or Save, which
         * release what the tab still holds and say the same whether an admin or the lease ended it a moment before.
         */
        public void left(long token, Instant before, Instant after) {
            left.put(token, new Instant[] {before, after});
        }

        public void saved(Lock lock, Instant at) {
            saves.add(new Object[] {lock, at});
        }
    }

    /** The verdict. */
    public record Report(long tokens, long saves, long events, long finalLocks, long expired, List<String> violations,
            Duration worstExpiryDelay) {
    }

    private record Event(long id, Instant at, String type, String key, String mode, String owner, Long token) {
    }

    /** One stretch of a lock's life in one mode. */
    private record Segment(long token, LockKey key, LockKey aggregate, String owner, LockMode mode, Instant from,
            Instant to) {
    }

    private final Observations seen;
    private final Set<String> keys = new HashSet<>();
    private final Duration lease;
    private final long mark;
    private final List<String> violations = new ArrayList<>();
    private Duration sweepBound;
    private Duration worstExpiryDelay = Duration.ZERO;

    /**
     * Also checks that no lock outlived its lease by more than {@code bound} (the sweep interval and its slack): an
     * EXPIRED event later than that after the latest the lease can have run to is a ghost.
     */
    public TortureChecker expiresWithin(Duration bound) {
        this.sweepBound = bound;
        return this;
    }

    public TortureChecker(Observations seen, List<LockKey> keys, Duration lease, long mark) {
        this.seen = seen;
        keys.forEach(k -> this.keys.add(k.toString()));
        this.lease = lease;
        this.mark = mark;
    }

    public Report check(Connection c) throws SQLException {
        List<Event> history = history(c);
        Map<Long, Event> endings = replay(history, finalLocks(c));
        Set<Long> left = new HashSet<>();
        for (var row : finalLocks(c)) {
            left.add(Long.parseLong(row.split("\\|")[3]));
        }
        Set<Long> audited = new HashSet<>();
        history.stream().filter(e -> e.type().equals("ACQUIRED")).forEach(e -> audited.add(e.token()));

        Map<Long, List<Segment>> lives = new HashMap<>();
        for (var entry : seen.grants.entrySet()) {
            long token = entry.getKey();
            if (!audited.contains(token)) {
                violation("token %d was granted to a client but its grant is not in the history", token);
            }
            Event end = endings.get(token);
            if (end == null && !left.contains(token)) {
                violation("token %d was granted, never released, and is not in app_lock", token);
            }
            lives.put(token, segments(token, entry.getValue(), end == null ? Instant.MAX : end.at()));
        }
        checkReleasesMadeByClients(endings);
        checkLocksLeftByClients(endings);
        checkNoConflicts(lives.values().stream().flatMap(List::stream).toList());
        checkSaves(lives);
        long expired = history.stream().filter(e -> e.type().equals("EXPIRED")).count();
        if (sweepBound != null) {
            checkExpiries(history);
        }
        return new Report(seen.grants.size(), seen.saves.size(), history.size(), left.size(), expired,
                List.copyOf(violations), worstExpiryDelay);
    }

    private void violation(String format, Object... args) {
        violations.add(String.format(format, args));
    }

    private List<Event> history(Connection c) throws SQLException {
        List<Event> events = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("select id, occurred_at, event_type, resource_key, mode,"
                + " owner_id, fencing_token from lock_event where id > ? order by id")) {
            ps.setLong(1, mark);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (keys.contains(rs.getString(4))) {
                        events.add(new Event(rs.getLong(1), rs.getTimestamp(2).toInstant(), rs.getString(3),
                                rs.getString(4), rs.getString(5), rs.getString(6), rs.getObject(7, Long.class)));
                    }
                }
            }
        }
        return events;
    }

    /** The rows left in app_lock for the torture's keys, as {@code key|owner|mode|token}. */
    private Set<String> finalLocks(Connection c) throws SQLException {
        Set<String> rows = new TreeSet<>();
        try (ResultSet rs = c.createStatement().executeQuery(
                "select resource_key, owner_id, mode, fencing_token from app_lock")) {
            while (rs.next()) {
                if (keys.contains(rs.getString(1))) {
                    rows.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getLong(4));
                }
            }
        }
        return rows;
    }

    /** Replays the history; returns each token's ending event. */
    private Map<Long, Event> replay(List<Event> history, Set<String> finalRows) {
        Map<Long, String[]> live = new HashMap<>(); // token -> key, owner, mode
        Map<Long, Event> endings = new HashMap<>();
        for (Event e : history) {
            switch (e.type()) {
                case "DENIED" -> { }
                case "ACQUIRED" -> {
                    if (live.put(e.token(), new String[] {e.key(), e.owner(), e.mode()}) != null
                            || endings.containsKey(e.token())) {
                        violation("history: token %d granted twice", e.token());
                    }
                }
                case "REACQUIRED", "RENEWED_AFTER_LAPSE" -> {
                    String[] row = live.get(e.token());
                    if (row == null) {
                        violation("history: %s of token %d, which is not held", e.type(), e.token());
                    } else {
                        row[2] = e.mode();
                    }
                }
                default -> {
                    if (live.remove(e.token()) == null) {
                        violation("history: %s of token %d on %s, which was never granted or already released",
                                e.type(), e.token(), e.key());
                    }
                    endings.put(e.token(), e);
                }
            }
        }
        Set<String> replayed = new TreeSet<>();
        live.forEach((token, row) -> replayed.add(row[0] + "|" + row[1] + "|" + row[2] + "|" + token));
        if (!replayed.equals(finalRows)) {
            Set<String> missing = new TreeSet<>(replayed);
            missing.removeAll(finalRows);
            Set<String> extra = new TreeSet<>(finalRows);
            extra.removeAll(replayed);
            violation("replaying the history does not give app_lock: replay only %s, app_lock only %s", missing,
                    extra);
        }
        return endings;
    }

    private static List<Segment> segments(long token, List<Lock> observed, Instant end) {
        List<Lock> byTime = new ArrayList<>(observed);
        byTime.sort(Comparator.comparing(Lock::renewedAt));
        List<Segment> segments = new ArrayList<>();
        Lock first = byTime.get(0);
        Instant from = first.acquiredAt();
        LockMode mode = first.mode();
        for (Lock later : byTime) {
            if (later.mode() != mode) { // an upgrade to WRITE, seen by the client at its re-acquire
                segments.add(new Segment(token, first.key(), first.aggregate(), first.ownerId(), mode, from,
                        later.renewedAt()));
                from = later.renewedAt();
                mode = later.mode();
            }
        }
        segments.add(new Segment(token, first.key(), first.aggregate(), first.ownerId(), mode, from, end));
        return segments;
    }

    private void checkReleasesMadeByClients(Map<Long, Event> endings) {
        seen.releases.forEach((token, call) -> {
            Event end = endings.get(token);
            if (end == null || !end.type().equals("RELEASED")) {
                violation("token %d: the client was told it released it, the history says %s", token,
                        end == null ? "nothing" : end.type());
            } else if (end.at().isBefore(call[0].minus(SLACK)) || end.at().isAfter(call[1].plus(SLACK))) {
                violation("token %d: released at %s by the history, outside the client's call %s–%s", token,
                        end.at(), call[0], call[1]);
            }
        });
    }

    /** A lock a client left has ended by the end of its call: released by that call, or ended before it. */
    private void checkLocksLeftByClients(Map<Long, Event> endings) {
        seen.left.forEach((token, call) -> {
            Event end = endings.get(token);
            if (end == null) {
                violation("token %d: the client left it, the history has no end for it", token);
            } else if (end.at().isAfter(call[1].plus(SLACK))) {
                violation("token %d: the client left it by %s, the history ends it later (%s, %s)", token, call[1],
                        end.type(), end.at());
            } else if (end.type().equals("RELEASED") && end.at().isBefore(call[0].minus(SLACK))) {
                violation("token %d: released at %s by the history, before the client left it at %s–%s", token,
                        end.at(), call[0], call[1]);
            }
        });
    }

    /** A sweep over each aggregate's segments in start order, against the ones still live. */
    private void checkNoConflicts(List<Segment> segments) {
        Map<LockKey, List<Segment>> byAggregate = new HashMap<>();
        segments.forEach(s -> byAggregate.computeIfAbsent(s.aggregate(), a -> new ArrayList<>()).add(s));
        for (List<Segment> inOne : byAggregate.values()) {
            inOne.sort(Comparator.comparing(Segment::from));
            List<Segment> active = new ArrayList<>();
            for (Segment s : inOne) {
                active.removeIf(a -> !a.to().isAfter(s.from().plus(SLACK)));
                for (Segment a : active) {
                    boolean overlapping = a.key().equals(s.key()) || a.key().equals(a.aggregate())
                            || s.key().equals(s.aggregate());
                    boolean exclusive = a.mode() == LockMode.WRITE || s.mode() == LockMode.WRITE;
                    if (overlapping && exclusive && !a.owner().equals(s.owner()) && s.to().isAfter(s.from())) {
                        violation("two conflicting locks live at once: token %d (%s %s, %s–%s) and token %d (%s %s,"
                                + " %s–%s)", a.token(), a.mode(), a.key(), a.from(), a.to(), s.token(), s.mode(),
                                s.key(), s.from(), s.to());
                    }
                }
                active.add(s);
            }
        }
    }

    private void checkSaves(Map<Long, List<Segment>> lives) {
        for (Object[] save : seen.saves) {
            Lock lock = (Lock) save[0];
            Instant at = (Instant) save[1];
            List<Segment> life = lives.get(lock.fencingToken());
            Segment during = life == null ? null : life.stream()
                    .filter(s -> !s.from().isAfter(at) && s.to().isAfter(at)).findFirst().orElse(null);
            if (during == null) {
                violation("save at %s accepted on token %d of %s, which was not live then", at, lock.fencingToken(),
                        lock.key());
            } else if (during.mode() != LockMode.WRITE) {
                violation("save at %s accepted on token %d of %s, held for reading only", at, lock.fencingToken(),
                        lock.key());
            } else if (at.isAfter(leaseBound(lock, at).plus(SLACK))) {
                violation("save at %s accepted on token %d of %s after its lease ran out (at %s at the latest)", at,
                        lock.fencingToken(), lock.key(), leaseBound(lock, at));
            }
        }
    }

    /** Every EXPIRED event came within the bound after the lease ran out (as the client last extended it). */
    private void checkExpiries(List<Event> history) {
        for (Event e : history) {
            if (!e.type().equals("EXPIRED") || e.token() == null || !seen.grants.containsKey(e.token())) {
                continue;
            }
            Lock any = seen.grants.get(e.token()).get(0);
            Instant lapsed = leaseBound(any, e.at());
            Duration delay = Duration.between(lapsed, e.at());
            if (delay.compareTo(worstExpiryDelay) > 0) {
                worstExpiryDelay = delay;
            }
            if (delay.compareTo(sweepBound) > 0) {
                violation("token %d of %s lapsed at %s (at the latest) but was removed only at %s: a ghost for %d ms",
                        e.token(), e.key(), lapsed, e.at(), delay.toMillis());
            }
        }
    }

    /** The latest the lease of {@code lock} can have run until at {@code at}, from what its owner was told. */
    private Instant leaseBound(Lock lock, Instant at) {
        Instant bound = seen.grants.get(lock.fencingToken()).stream().filter(l -> !l.renewedAt().isAfter(at))
                .map(Lock::expiresAt).max(Comparator.naturalOrder()).orElse(lock.expiresAt());
        for (Instant[] renewal : seen.renewals.getOrDefault(lock.ownerId(), new ConcurrentLinkedQueue<>())) {
            if (!renewal[0].isAfter(at) && renewal[1].plus(lease).isAfter(bound)) {
                bound = renewal[1].plus(lease);
            }
        }
        return bound;
    }
}
