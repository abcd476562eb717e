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
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The torture's judge. It reads every audit row the store wrote for the torture's keys and judges
 * each one against what the clients did — which call, by which session and tab, between which
 * instants — and it judges every lock in the history, whether or not a client ever saw its grant
 * (an answer may be lost). What it takes from the store is only what no client can know: that a row
 * was written, when (the database's clock), and with which token and mode. Owner, tab and aggregate
 * come from the client side (the call that made the row, the catalogue).
 *
 * <p>The rules, each with a detection test in {@code TortureCheckerTest}:
 *
 * <ol>
 *   <li><b>history</b> — replaying the rows (grants add, ends remove) never ends what is not live,
 *       never grants a token twice, and leaves exactly the rows in {@code app_lock};
 *   <li><b>grants</b> — every grant row lies inside an acquire call of the same session naming that
 *       key that was not refused; every grant a client was told of is in the history inside its
 *       call, with its start inside the call;
 *   <li><b>conflicts</b> — no two locks of different sessions on the same key, or on an aggregate
 *       and anything inside it, one of them WRITE, live at the same instant (a lock is live from
 *       its grant row to its end row: a lapsed row still blocks until it is deleted);
 *   <li><b>ends</b> — {@code RELEASED} inside a release call of the owner on that key (and told
 *       so); {@code VIEW_CLOSED} inside a tab release of the owner for the tab that held it; {@code
 *       SESSION_ENDED} inside the owner's session end; {@code FORCE_RELEASED} inside an admin's
 *       force release of that key (and every lock the admin was told of ended so); {@code EXPIRED}
 *       inside a sweep or a clean-up of that aggregate, never before the lease the holder last
 *       extended and never later than the sweep bound after it; {@code RENEWED_AFTER_LAPSE} inside
 *       a heartbeat of the owner for that tab;
 *   <li><b>heartbeats</b> — a heartbeat renews no more locks than the beating tab (or session)
 *       could hold then;
 *   <li><b>saves</b> — an accepted save presented a token that was live, WRITE, its session's, on
 *       that key, and within its lease when the save was judged, and still there when the save
 *       wrote (its row is locked until the commit); a refused save had a reason: its token was
 *       gone, READ, or possibly past its lease;
 *   <li><b>refusals</b> — every {@code DENIED} row lies inside a refused call of that session
 *       naming that key, and a refusal had a conflicting lock of another session live during the
 *       call;
 *   <li><b>reach</b> — every end call (a release, a screen's Done or Save, a tab release, a session
 *       end, a force release, a take-over) ended everything in its reach that was there when it
 *       began, whatever it answered (a force release answered "nobody holds it" is excused only for
 *       a lock whose lease may already have run out and that then ended {@code EXPIRED}).
 * </ol>
 *
 * Every row must be explained by a call (a row no call explains is a violation): the in-process
 * torture and the two-node one both record every call.
 *
 * <p>Times are the database's clock for rows ({@code clock_timestamp()}, written after the row's
 * change) and the JVM's clock for calls (same machine, same clock).
 */
public final class TortureChecker {

    /** The JVM and the database read one clock at slightly different moments. */
    static final Duration SLACK = Duration.ofMillis(2);

    /**
     * A heartbeat that ended this shortly before a lock's end row may have come after the deletion
     * took the row: it is not counted as certainly extending the lease when judging an early
     * expiry.
     */
    static final Duration UNCERTAIN = Duration.ofMillis(50);

    /** What a call did, as its client saw it. */
    public enum Kind {
        ACQUIRE,
        RENEW,
        RELEASE,
        RELEASE_VIEW,
        RELEASE_ALL,
        FORCE_RELEASE,
        /** An admin's force release of everything one person holds (the owner is theirs). */
        FORCE_RELEASE_USER,
        /** A take-over: ends the holders' locks on its key and grants it to its caller, at once. */
        TAKE_OVER,
        /**
         * A request to hand a key over, answered by handing it over: the holder's lock ends and the
         * caller is granted it, at once.
         */
        HAND_OVER,
        /**
         * A request to hand a key over that its holder declined, its caller withdrew or that ended
         * with the holder's lock: its history rows lie inside it, and it ends nothing.
         */
        HAND_OVER_REQUEST,
        SWEEP,
        SAVE
    }

    /** How a call ended for its client. */
    public enum Outcome {
        /** Answered as the contract says for success. */
        DONE,
        /** Refused (a conflict; a save's lock not held). */
        REFUSED,
        /** No answer: the outcome is unknown to the client and is judged from the history alone. */
        UNKNOWN,
        /**
         * Answered that the store could not be reached ({@code 503}, an outage): nothing is
         * required of it; what it may have done before the store went is judged from the history.
         */
        FAILED
    }

    /**
     * One call. {@code tokens}: those granted (acquire), released (force release) or presented
     * (save); {@code count}: locks renewed or released, -1 when unknown; {@code judgedAt}/{@code
     * writtenAt}: a save's database times.
     */
    public record Call(
            Kind kind,
            String owner,
            String view,
            List<LockKey> keys,
            LockMode mode,
            Instant before,
            Instant after,
            Outcome outcome,
            List<Lock> locks,
            List<Long> tokens,
            int count,
            Instant judgedAt,
            Instant writtenAt) {}

    /** What the clients did; thread-safe. */
    public static final class Observations {
        final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
        final Map<Long, List<Lock>> grants = new ConcurrentHashMap<>();

        public void call(Call call) {
            calls.add(call);
            if ((call.kind() == Kind.ACQUIRE
                            || call.kind() == Kind.TAKE_OVER
                            || call.kind() == Kind.HAND_OVER)
                    && call.outcome() == Outcome.DONE) {
                call.locks().forEach(this::granted);
            }
        }

        public void acquired(
                String owner,
                String view,
                Collection<LockKey> keys,
                LockMode mode,
                Instant before,
                Instant after,
                Outcome outcome,
                List<Lock> granted) {
            call(
                    new Call(
                            Kind.ACQUIRE,
                            owner,
                            view,
                            List.copyOf(keys),
                            mode,
                            before,
                            after,
                            outcome,
                            granted == null ? List.of() : List.copyOf(granted),
                            List.of(),
                            -1,
                            null,
                            null));
        }

        public void renewedCall(
                String owner, String view, Instant before, Instant after, int count) {
            call(
                    new Call(
                            Kind.RENEW,
                            owner,
                            view,
                            List.of(),
                            null,
                            before,
                            after,
                            Outcome.DONE,
                            List.of(),
                            List.of(),
                            count,
                            null,
                            null));
        }

        public void releasedCall(
                String owner,
                LockKey key,
                String view,
                Instant before,
                Instant after,
                Outcome outcome) {
            call(
                    new Call(
                            Kind.RELEASE,
                            owner,
                            view,
                            List.of(key),
                            null,
                            before,
                            after,
                            outcome,
                            List.of(),
                            List.of(),
                            -1,
                            null,
                            null));
        }

        public void ended(
                Kind kind,
                String owner,
                String view,
                Instant before,
                Instant after,
                List<LockKey> released) {
            call(
                    new Call(
                            kind,
                            owner,
                            view,
                            released == null ? List.of() : List.copyOf(released),
                            null,
                            before,
                            after,
                            released == null ? Outcome.UNKNOWN : Outcome.DONE,
                            List.of(),
                            List.of(),
                            released == null ? -1 : released.size(),
                            null,
                            null));
        }

        public void tookOver(
                String owner,
                String view,
                LockKey key,
                Instant before,
                Instant after,
                Outcome outcome,
                Lock granted) {
            call(
                    new Call(
                            Kind.TAKE_OVER,
                            owner,
                            view,
                            List.of(key),
                            LockMode.WRITE,
                            before,
                            after,
                            outcome,
                            granted == null ? List.of() : List.of(granted),
                            List.of(),
                            -1,
                            null,
                            null));
        }

        public void handedOver(
                String owner,
                String view,
                LockKey key,
                Instant before,
                Instant after,
                Outcome outcome,
                Lock granted) {
            call(
                    new Call(
                            Kind.HAND_OVER,
                            owner,
                            view,
                            List.of(key),
                            LockMode.WRITE,
                            before,
                            after,
                            outcome,
                            granted == null ? List.of() : List.of(granted),
                            List.of(),
                            -1,
                            null,
                            null));
        }

        /**
         * A request to hand {@code key} over that ended without a hand-over (declined, withdrawn,
         * or ended with the holder's lock), from the ask to its end.
         */
        public void requested(
                String owner, String view, LockKey key, Instant before, Instant after) {
            call(
                    new Call(
                            Kind.HAND_OVER_REQUEST,
                            owner,
                            view,
                            List.of(key),
                            LockMode.WRITE,
                            before,
                            after,
                            Outcome.DONE,
                            List.of(),
                            List.of(),
                            -1,
                            null,
                            null));
        }

        public void forced(LockKey key, Instant before, Instant after, List<Lock> released) {
            admin(Kind.FORCE_RELEASE, null, List.of(key), before, after, released);
        }

        /** An admin released everything the person of session {@code owner} held. */
        public void forcedUser(String owner, Instant before, Instant after, List<Lock> released) {
            admin(
                    Kind.FORCE_RELEASE_USER,
                    owner,
                    released == null ? List.of() : released.stream().map(Lock::key).toList(),
                    before,
                    after,
                    released);
        }

        /** An admin's release; {@code released}: the locks the admin was told of, null if none. */
        private void admin(
                Kind kind,
                String owner,
                List<LockKey> keys,
                Instant before,
                Instant after,
                List<Lock> released) {
            call(
                    new Call(
                            kind,
                            owner,
                            null,
                            keys,
                            null,
                            before,
                            after,
                            released == null ? Outcome.UNKNOWN : Outcome.DONE,
                            List.of(),
                            released == null
                                    ? List.of()
                                    : released.stream().map(Lock::fencingToken).toList(),
                            -1,
                            null,
                            null));
        }

        public void swept(Instant before, Instant after) {
            call(
                    new Call(
                            Kind.SWEEP,
                            null,
                            null,
                            List.of(),
                            null,
                            before,
                            after,
                            Outcome.DONE,
                            List.of(),
                            List.of(),
                            -1,
                            null,
                            null));
        }

        /** A save presenting {@code token}; accepted when {@code judgedAt} is set. */
        public void saveCall(
                String owner,
                LockKey key,
                long token,
                Instant before,
                Instant after,
                Instant judgedAt,
                Instant writtenAt) {
            call(
                    new Call(
                            Kind.SAVE,
                            owner,
                            null,
                            List.of(key),
                            null,
                            before,
                            after,
                            judgedAt == null ? Outcome.REFUSED : Outcome.DONE,
                            List.of(),
                            List.of(token),
                            -1,
                            judgedAt,
                            writtenAt));
        }

        /** A grant a client was told of (its call's answer). */
        private void granted(Lock lock) {
            grants.computeIfAbsent(
                            lock.fencingToken(),
                            t -> Collections.synchronizedList(new ArrayList<>()))
                    .add(lock);
        }
    }

    /** The verdict. */
    public record Report(
            long tokens,
            long saves,
            long events,
            long finalLocks,
            long expired,
            List<String> violations,
            Duration worstExpiryDelay,
            long callsJudged,
            long rowsMatched) {}

    private record Event(
            long id,
            Instant at,
            String type,
            LockKey key,
            LockMode mode,
            String owner,
            Long token) {}

    /**
     * One grant row of a lock (its first, a re-grant, a revival) with the call that made it, if
     * known.
     */
    private record Stage(Event event, Call call) {
        String view() {
            return call == null ? null : call.view();
        }
    }

    /** One lock's life in the history. */
    private static final class Life {
        final long token;
        final LockKey key;
        final LockKey aggregate;
        final String owner;
        final Instant from;
        final List<Stage> stages = new ArrayList<>();
        Event end;

        /**
         * The call that ended it, when known: its row is visible to others until that call's
         * commit.
         */
        Call endCall;

        Life(long token, LockKey key, LockKey aggregate, String owner, Instant from) {
            this.token = token;
            this.key = key;
            this.aggregate = aggregate;
            this.owner = owner;
            this.from = from;
        }

        Instant to() {
            return end == null ? Instant.MAX : end.at();
        }

        /**
         * Until when others may still have seen its row: the end row's instant is when it was
         * deleted, but a delete inside a transaction shows only at the commit, by the end of the
         * call that made it.
         */
        Instant seenUntil() {
            return endCall == null || endCall.after().isBefore(to()) ? to() : endCall.after();
        }

        boolean liveAt(Instant t) {
            return !from.isAfter(t) && to().isAfter(t);
        }

        LockMode modeAt(Instant t) {
            LockMode mode = stages.get(0).event().mode();
            for (Stage s : stages) {
                if (!s.event().at().isAfter(t) && s.event().mode() == LockMode.WRITE) {
                    mode = LockMode.WRITE;
                }
            }
            return mode;
        }

        Set<String> views() {
            Set<String> views = new HashSet<>();
            stages.forEach(s -> views.add(s.view()));
            return views;
        }

        /**
         * The tab that certainly held it at {@code t}: set by a call that ended before, with no
         * re-grant since.
         */
        String certainViewAt(Instant t) {
            String view = null;
            for (Stage s : stages) {
                if (s.call() == null
                        || !s.event().type().equals("ACQUIRED")
                                && !s.event().type().equals("REACQUIRED")) {
                    continue;
                }
                if (s.call().after().isBefore(t)) {
                    view = s.call().view();
                } else if (!s.call().before().isAfter(t)) {
                    return null;
                }
            }
            return view;
        }
    }

    /** One stretch of a lock's life in one mode. */
    private record Segment(Life life, LockMode mode, Instant from, Instant to) {}

    private final Observations seen;
    private final Set<String> keys = new HashSet<>();
    private final Function<LockKey, LockKey> aggregateOf;
    private final Duration lease;
    private final long mark;
    private final List<String> violations = new ArrayList<>();
    private Duration sweepBound;
    private boolean bySweeps;
    private Duration worstExpiryDelay = Duration.ZERO;
    private long rowsMatched;

    private final Map<String, List<Call>> byOwner = new HashMap<>();
    private final Map<LockKey, List<Call>> forcesByKey = new HashMap<>();
    private final Map<LockKey, List<Call>> takeOversByKey = new HashMap<>();
    private final Map<LockKey, List<Call>> handOversByKey = new HashMap<>();

    /** The requests to hand over that ended without a hand-over, by key. */
    private final Map<LockKey, List<Call>> requestsByKey = new HashMap<>();

    /** The history being judged, in id order. */
    private List<Event> ordered = List.of();

    private Map<Long, List<Event>> regrantsOf = Map.of();

    private final Map<LockKey, List<Call>> acquiresByAggregate = new HashMap<>();
    private final List<Call> sweeps = new ArrayList<>();
    private final Map<Long, Life> lives = new LinkedHashMap<>();
    private final Map<String, List<Life>> livesByOwner = new HashMap<>();

    /** The HANDOVER_ASKED rows, by key. */
    private final Map<LockKey, List<Event>> asksByKey = new HashMap<>();

    /** A checker of calls: every row must be explained by one. */
    public TortureChecker(
            Observations seen,
            List<LockKey> keys,
            Function<LockKey, LockKey> aggregateOf,
            Duration lease,
            long mark) {
        this.seen = seen;
        keys.forEach(k -> this.keys.add(k.toString()));
        this.aggregateOf = aggregateOf;
        this.lease = lease;
        this.mark = mark;
    }

    /**
     * Also checks that no lock outlived its lease by more than {@code bound} (the sweep interval
     * and its slack): an EXPIRED row later than that after the latest the lease can have run to is
     * a ghost.
     */
    public TortureChecker expiresWithin(Duration bound) {
        this.sweepBound = bound;
        return this;
    }

    /**
     * Judges removal against the sweeps seen instead of the clock: a lock whose lease had run out
     * (at the latest) before a sweep began must be gone when that sweep ends. This holds the store
     * to its part whatever the scheduler does to the thread that calls the sweep; how often the
     * sweep runs is the timer's promise, judged by {@link #expiresWithin} where the application's
     * own timer sweeps.
     */
    public TortureChecker expiresAtTheNextSweep() {
        this.bySweeps = true;
        return this;
    }

    /**
     * The first sweep seen that began after {@code lapsed}, ended before {@code at} and ran while
     * nothing else could hold the row of {@code life}. The sweep skips rows another transaction has
     * locked (by design: it never waits), so a sweep that ran beside such a call may rightly leave
     * the row; a stalled call holds it for as long as it stalls, and a later sweep must take it.
     */
    private Call sweepThatLeft(Life life, Instant lapsed, Instant at) {
        return sweeps.stream()
                .filter(
                        s ->
                                s.before().isAfter(lapsed.plus(SLACK))
                                        && s.after().plus(SLACK).isBefore(at)
                                        && !rowMayBeHeldDuring(life, s))
                .findFirst()
                .orElse(null);
    }

    /**
     * Whether a call that may lock the row of {@code life} was under way during {@code sweep}:
     * another sweep; any call of its owner (a save, a renewal, a release, a session's end); an
     * acquisition, take-over or hand-over in its aggregate (the clean-up locks the aggregate's
     * lapsed rows); a force release of its key.
     */
    private boolean rowMayBeHeldDuring(Life life, Call sweep) {
        Predicate<Call> during =
                c ->
                        c != sweep
                                && c.before().isBefore(sweep.after().plus(SLACK))
                                && c.after().isAfter(sweep.before().minus(SLACK));
        return sweeps.stream().anyMatch(during)
                || byOwner(life.owner).stream().anyMatch(during)
                || acquiresByAggregate.getOrDefault(life.aggregate, List.of()).stream()
                        .anyMatch(during)
                || forcesByKey.getOrDefault(life.key, List.of()).stream().anyMatch(during);
    }

    public Report check(Connection c) throws SQLException {
        index();
        List<Event> history = history(c);
        ordered = history;
        regrantsOf = new HashMap<>();
        for (Event e : history) {
            if (e.type().equals("REACQUIRED") && e.token() != null) {
                regrantsOf.computeIfAbsent(e.token(), t -> new ArrayList<>()).add(e);
            }
        }
        Set<String> finalRows = finalLocks(c);
        replay(history, finalRows);
        for (Event e : history) {
            judge(e);
        }
        checkCalls();
        checkGrantsTold();
        checkNoConflicts();
        checkNoGhostsLeft(c);
        long expired = history.stream().filter(e -> e.type().equals("EXPIRED")).count();
        long saves =
                seen.calls.stream()
                        .filter(k -> k.kind() == Kind.SAVE && k.outcome() == Outcome.DONE)
                        .count();
        Set<Long> tokens = new HashSet<>(lives.keySet());
        tokens.addAll(seen.grants.keySet());
        return new Report(
                tokens.size(),
                saves,
                history.size(),
                finalRows.size(),
                expired,
                List.copyOf(violations),
                worstExpiryDelay,
                seen.calls.size(),
                rowsMatched);
    }

    private void violation(String format, Object... args) {
        violations.add(String.format(format, args));
    }

    private void index() {
        for (Call call : seen.calls) {
            if (call.owner() != null) {
                byOwner.computeIfAbsent(call.owner(), o -> new ArrayList<>()).add(call);
            }
            switch (call.kind()) {
                case FORCE_RELEASE ->
                        forcesByKey
                                .computeIfAbsent(call.keys().get(0), k -> new ArrayList<>())
                                .add(call);
                case SWEEP -> sweeps.add(call);
                case HAND_OVER_REQUEST ->
                        requestsByKey
                                .computeIfAbsent(call.keys().get(0), k -> new ArrayList<>())
                                .add(call);
                case ACQUIRE, TAKE_OVER, HAND_OVER ->
                        call.keys().stream()
                                .map(aggregateOf)
                                .distinct()
                                .forEach(
                                        a ->
                                                acquiresByAggregate
                                                        .computeIfAbsent(a, k -> new ArrayList<>())
                                                        .add(call));
                default -> {}
            }
            if (call.kind() == Kind.TAKE_OVER || call.kind() == Kind.HAND_OVER) {
                (call.kind() == Kind.TAKE_OVER ? takeOversByKey : handOversByKey)
                        .computeIfAbsent(call.keys().get(0), k -> new ArrayList<>())
                        .add(call);
            }
        }
        Comparator<Call> byStart = Comparator.comparing(Call::before);
        takeOversByKey.values().forEach(l -> l.sort(byStart));
        handOversByKey.values().forEach(l -> l.sort(byStart));
        requestsByKey.values().forEach(l -> l.sort(byStart));
        byOwner.values().forEach(l -> l.sort(byStart));
        forcesByKey.values().forEach(l -> l.sort(byStart));
        acquiresByAggregate.values().forEach(l -> l.sort(byStart));
        sweeps.sort(byStart);
    }

    /**
     * The calls of {@code calls} (sorted by start) whose window holds {@code at}, give or take the
     * slack.
     */
    private static List<Call> around(List<Call> calls, Instant at) {
        if (calls == null || calls.isEmpty()) {
            return List.of();
        }
        int lo = 0;
        int hi = calls.size();
        Instant latestStart = at.plus(SLACK);
        while (lo < hi) { // the first call starting after latestStart
            int mid = (lo + hi) >>> 1;
            if (calls.get(mid).before().isAfter(latestStart)) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        List<Call> found = new ArrayList<>();
        Instant earliest = at.minus(SLACK);
        for (int i = lo - 1;
                i >= 0 && i >= lo - 400;
                i--) { // calls last well under 400 starts of one list
            Call call = calls.get(i);
            if (!call.after().isBefore(earliest)) {
                found.add(call);
            }
        }
        return found;
    }

    /** How far {@code at} lies outside the call's window (zero inside it). */
    private static Duration outside(Instant at, Call call) {
        if (at.isBefore(call.before())) {
            return Duration.between(at, call.before());
        }
        return at.isAfter(call.after()) ? Duration.between(call.after(), at) : Duration.ZERO;
    }

    private static boolean inside(Instant at, Instant before, Instant after) {
        return !at.isBefore(before.minus(SLACK)) && !at.isAfter(after.plus(SLACK));
    }

    private List<Event> history(Connection c) throws SQLException {
        List<Event> events = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement(
                        "select id, occurred_at, event_type, resource_key, mode,"
                                + " owner_id, fencing_token from lock_event where id > ? order by id")) {
            ps.setLong(1, mark);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (keys.contains(rs.getString(4))) {
                        String mode = rs.getString(5);
                        events.add(
                                new Event(
                                        rs.getLong(1),
                                        rs.getTimestamp(2).toInstant(),
                                        rs.getString(3),
                                        LockKey.parse(rs.getString(4)),
                                        mode == null ? null : LockMode.valueOf(mode),
                                        rs.getString(6),
                                        rs.getObject(7, Long.class)));
                    }
                }
            }
        }
        return events;
    }

    /** The rows left in app_lock for the torture's keys, as {@code key|owner|mode|token}. */
    private Set<String> finalLocks(Connection c) throws SQLException {
        Set<String> rows = new TreeSet<>();
        try (ResultSet rs =
                c.createStatement()
                        .executeQuery(
                                "select resource_key, owner_id, mode, fencing_token from app_lock")) {
            while (rs.next()) {
                if (keys.contains(rs.getString(1))) {
                    rows.add(
                            rs.getString(1)
                                    + "|"
                                    + rs.getString(2)
                                    + "|"
                                    + rs.getString(3)
                                    + "|"
                                    + rs.getLong(4));
                }
            }
        }
        return rows;
    }

    /** Rule 1, and the lives every other rule judges. */
    private void replay(List<Event> history, Set<String> finalRows) {
        Set<Long> ended = new HashSet<>();
        Set<Long> asked = new HashSet<>(); // tokens someone asked to be handed over
        for (Event e : history) {
            switch (e.type()) {
                case "DENIED" -> {}
                case "HANDOVER_ASKED" -> {
                    Life life = lives.get(e.token());
                    if (life == null || life.end != null) {
                        violation(
                                "history: a hand-over asked of token %s on %s, which is not held",
                                e.token(), e.key());
                    }
                    asked.add(e.token());
                    asksByKey.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e);
                }
                case "HANDOVER_DECLINED", "HANDOVER_TIMED_OUT", "HANDOVER_WITHDRAWN" -> {
                    if (!lives.containsKey(e.token())) {
                        violation(
                                "history: %s of token %s on %s, which was never granted",
                                e.type(), e.token(), e.key());
                    }
                }
                case "ACQUIRED" -> {
                    if (lives.containsKey(e.token())) {
                        violation("history: token %d granted twice", e.token());
                        continue;
                    }
                    Life life =
                            new Life(
                                    e.token(),
                                    e.key(),
                                    aggregateOf.apply(e.key()),
                                    e.owner(),
                                    e.at());
                    life.stages.add(new Stage(e, null));
                    lives.put(e.token(), life);
                    livesByOwner.computeIfAbsent(e.owner(), o -> new ArrayList<>()).add(life);
                }
                case "REACQUIRED", "RENEWED_AFTER_LAPSE" -> {
                    Life life = lives.get(e.token());
                    if (life == null || life.end != null) {
                        violation(
                                "history: %s of token %d, which is not held", e.type(), e.token());
                    } else if (!life.owner.equals(e.owner()) || !life.key.equals(e.key())) {
                        violation(
                                "history: %s of token %d names %s of %s, granted as %s of %s",
                                e.type(), e.token(), e.key(), e.owner(), life.key, life.owner);
                    } else {
                        life.stages.add(new Stage(e, null));
                    }
                }
                default -> {
                    if (e.type().equals("HANDED_OVER") && !asked.contains(e.token())) {
                        violation(
                                "history: token %s on %s handed over, but nobody asked for it",
                                e.token(), e.key());
                    }
                    Life life = e.token() == null ? null : lives.get(e.token());
                    if (life == null || life.end != null || !ended.add(e.token())) {
                        violation(
                                "history: %s of token %s on %s, which was never granted or already ended",
                                e.type(), e.token(), e.key());
                    } else {
                        life.end = e;
                    }
                }
            }
        }
        Set<String> replayed = new TreeSet<>();
        lives.values().stream()
                .filter(l -> l.end == null)
                .forEach(
                        l ->
                                replayed.add(
                                        l.key
                                                + "|"
                                                + l.owner
                                                + "|"
                                                + l.modeAt(Instant.MAX)
                                                + "|"
                                                + l.token));
        if (!replayed.equals(finalRows)) {
            Set<String> missing = new TreeSet<>(replayed);
            missing.removeAll(finalRows);
            Set<String> extra = new TreeSet<>(finalRows);
            extra.removeAll(replayed);
            violation(
                    "replaying the history does not give app_lock: replay only %s, app_lock only %s",
                    missing, extra);
        }
    }

    /** Rules 2, 4 and 7 for one row. */
    private void judge(Event e) {
        Life life = e.token() == null ? null : lives.get(e.token());
        switch (e.type()) {
            case "ACQUIRED", "REACQUIRED" -> judgeGrant(e, life);
            case "RENEWED_AFTER_LAPSE" ->
                    matched(
                            e,
                            byOwner(e.owner()).stream()
                                    .filter(
                                            c ->
                                                    c.kind() == Kind.RENEW
                                                            && (c.view() == null
                                                                    || life != null
                                                                            && life.views()
                                                                                    .contains(
                                                                                            c
                                                                                                    .view()))),
                            "a heartbeat of %s",
                            e.owner());
            case "DENIED" ->
                    matched(
                            e,
                            byOwner(e.owner()).stream()
                                    .filter(
                                            c ->
                                                    c.kind() == Kind.ACQUIRE
                                                            && c.outcome() != Outcome.DONE
                                                            && c.keys().contains(e.key())),
                            "a refused acquire by %s",
                            e.owner());
            case "RELEASED" ->
                    endedBy(
                            life,
                            e,
                            byOwner(e.owner()).stream()
                                    .filter(
                                            c ->
                                                    c.kind() == Kind.RELEASE
                                                            && c.keys().get(0).equals(e.key())
                                                            && c.outcome() != Outcome.REFUSED
                                                            && (c.view() == null
                                                                    || life != null
                                                                            && life.views()
                                                                                    .contains(
                                                                                            c
                                                                                                    .view()))),
                            "a release of %s by its owner %s",
                            e.key(),
                            e.owner());
            case "VIEW_CLOSED" ->
                    endedBy(
                            life,
                            e,
                            byOwner(e.owner()).stream()
                                    .filter(
                                            c ->
                                                    c.kind() == Kind.RELEASE_VIEW
                                                            && life != null
                                                            && c.view()
                                                                    .equals(viewAt(life, e.at()))),
                            "a release of the tab that held it" + " (%s) by %s",
                            life == null ? null : viewAt(life, e.at()),
                            e.owner());
            case "SESSION_ENDED" ->
                    endedBy(
                            life,
                            e,
                            byOwner(e.owner()).stream().filter(c -> c.kind() == Kind.RELEASE_ALL),
                            "the end of session %s",
                            e.owner());
            case "FORCE_RELEASED" ->
                    endedBy(
                            life,
                            e,
                            java.util.stream.Stream.concat(
                                    around(forcesByKey.get(e.key()), e.at()).stream(),
                                    byOwner(e.owner()).stream()
                                            .filter(c -> c.kind() == Kind.FORCE_RELEASE_USER)),
                            "an admin's force release of %s",
                            e.key());
            case "TAKEN_OVER" -> {
                endedBy(
                        life,
                        e,
                        around(takeOversByKey.get(e.key()), e.at()).stream()
                                .filter(
                                        c ->
                                                c.outcome() != Outcome.REFUSED
                                                        && !c.owner().equals(e.owner())),
                        "a take-over of %s",
                        e.key());
                judgeNoGap(e, takeOversByKey, "take-over");
            }
            case "HANDED_OVER" -> {
                endedBy(
                        life,
                        e,
                        around(handOversByKey.get(e.key()), e.at()).stream()
                                .filter(c -> c.outcome() != Outcome.REFUSED),
                        "a hand-over of %s",
                        e.key());
                judgeNoGap(e, handOversByKey, "hand-over");
            }
            case "HANDOVER_ASKED",
                    "HANDOVER_DECLINED",
                    "HANDOVER_TIMED_OUT",
                    "HANDOVER_WITHDRAWN" ->
                    matched(
                            e,
                            java.util.stream.Stream.concat(
                                    around(handOversByKey.get(e.key()), e.at()).stream(),
                                    around(requestsByKey.get(e.key()), e.at()).stream()),
                            "a request to hand over %s",
                            e.key());
            case "EXPIRED" -> {
                endedBy(
                        life,
                        e,
                        java.util.stream.Stream.concat(
                                around(sweeps, e.at()).stream(),
                                around(acquiresByAggregate.get(aggregateOf.apply(e.key())), e.at())
                                        .stream()),
                        "a sweep or a clean-up of %s",
                        aggregateOf.apply(e.key()));
                if (life != null) {
                    judgeExpiry(e, life);
                }
            }
            default -> violation("history: unknown row type %s (row %d)", e.type(), e.id());
        }
    }

    private List<Call> byOwner(String owner) {
        return byOwner.getOrDefault(owner, List.of());
    }

    /**
     * The tab that held {@code life} at {@code at}: the one its latest grant row before then was
     * made for.
     */
    private static String viewAt(Life life, Instant at) {
        String view = null;
        for (Stage s : life.stages) {
            if (!s.event().at().isAfter(at)
                    && s.call() != null
                    && !s.event().type().equals("RENEWED_AFTER_LAPSE")) {
                view = s.view();
            }
        }
        return view;
    }

    private void endedBy(
            Life life,
            Event e,
            java.util.stream.Stream<Call> candidates,
            String what,
            Object... args) {
        Call call = matched(e, candidates, what, args);
        if (life != null && life.end == e) {
            life.endCall = call;
        }
    }

    /** A row some call explains: one of {@code candidates} whose window holds the row's time. */
    private Call matched(
            Event e, java.util.stream.Stream<Call> candidates, String what, Object... args) {
        // Of two calls one after the other, the row's instant can lie within the slack of both: the
        // call whose
        // window holds it exactly wins, then the nearer one; a row goes first to the call that
        // answered its token (a grant told of, a lock an admin was told was released).
        Call call =
                candidates
                        .filter(c -> inside(e.at(), c.before(), c.after()))
                        .min(
                                Comparator.comparing((Call c) -> !answered(c, e.token()))
                                        .thenComparing(c -> outside(e.at(), c)))
                        .orElse(null);
        if (call != null) {
            rowsMatched++;
        } else {
            violation(
                    "row %d (%s of token %s on %s at %s) lies inside no call of %s",
                    e.id(), e.type(), e.token(), e.key(), e.at(), String.format(what, args));
        }
        return call;
    }

    /** Whether the call's answer named {@code token}: a lock it granted or released. */
    private static boolean answered(Call c, Long token) {
        return token != null
                && (c.kind() != Kind.SAVE && c.tokens().contains(token)
                        || c.locks().stream().anyMatch(l -> l.fencingToken() == token));
    }

    private void judgeGrant(Event e, Life life) {
        // A call writes one grant row per key. A call whose window holds a later grant row of this
        // token exactly made that row: this one, lying only within its slack, was made by another
        // (one whose answer was lost, say, before the same client asked again and was told the
        // token it already held).
        List<Event> regrants =
                regrantsOf.getOrDefault(e.token(), List.of()).stream()
                        .filter(r -> r.id() > e.id())
                        .toList();
        Call call =
                matched(
                        e,
                        byOwner(e.owner()).stream()
                                .filter(
                                        c ->
                                                (c.kind() == Kind.ACQUIRE
                                                                || c.kind() == Kind.TAKE_OVER
                                                                || c.kind() == Kind.HAND_OVER)
                                                        && c.keys().contains(e.key())
                                                        && !madeAnother(c, e, regrants)),
                        "an acquire of %s by %s",
                        e.key(),
                        e.owner());
        if (call == null || life == null) {
            return;
        }
        life.stages.replaceAll(s -> s.event().id() == e.id() ? new Stage(e, call) : s);
        if (call.outcome() == Outcome.REFUSED) {
            violation(
                    "token %d: granted by row %d at %s inside a call the client was told was refused",
                    e.token(), e.id(), e.at());
        }
        if (call.outcome() == Outcome.DONE
                && call.locks().stream().noneMatch(l -> l.fencingToken() == e.token())) {
            violation(
                    "token %d: granted by row %d at %s, but the call answered %s",
                    e.token(),
                    e.id(),
                    e.at(),
                    call.locks().stream().map(Lock::fencingToken).toList());
        }
        if (call.mode() == LockMode.WRITE && e.mode() != LockMode.WRITE) {
            violation("token %d: a WRITE request left it %s (row %d)", e.token(), e.mode(), e.id());
        }
    }

    /** Whether {@code c} made a later grant row of e's token and lies around e only by slack. */
    private static boolean madeAnother(Call c, Event e, List<Event> regrants) {
        return outside(e.at(), c).isPositive()
                && regrants.stream().anyMatch(r -> outside(r.at(), c).isZero());
    }

    /**
     * A take-over or a hand-over leaves no gap: the next grant in the aggregate after its
     * TAKEN_OVER or HANDED_OVER line is the receiver's grant of that key, made by a call of that
     * kind around both lines.
     */
    private void judgeNoGap(Event taken, Map<LockKey, List<Call>> passes, String what) {
        LockKey aggregate = aggregateOf.apply(taken.key());
        Event next =
                ordered.stream()
                        .filter(
                                e ->
                                        e.id() > taken.id()
                                                && (e.type().equals("ACQUIRED")
                                                        || e.type().equals("REACQUIRED"))
                                                && aggregateOf.apply(e.key()).equals(aggregate))
                        .findFirst()
                        .orElse(null);
        boolean taker =
                next != null
                        && next.key().equals(taken.key())
                        && around(passes.get(taken.key()), taken.at()).stream()
                                .anyMatch(c -> c.owner().equals(next.owner()));
        if (!taker) {
            violation(
                    "a gap after the %s of %s (row %d): the next grant in its aggregate is %s",
                    what,
                    taken.key(),
                    taken.id(),
                    next == null
                            ? "none"
                            : next.type() + " of " + next.key() + " by " + next.owner());
        }
    }

    /**
     * Rule 4 for EXPIRED: never before the lease ran out; never after a whole sweep that began once
     * it had run out; never later than the sweep bound after.
     */
    private void judgeExpiry(Event e, Life life) {
        Instant earliest = leaseAtLeast(life, e.at());
        if (earliest != null && e.at().isBefore(earliest.minus(SLACK))) {
            violation(
                    "token %d of %s expired at %s, %d ms before its lease ran out (%s at the earliest)",
                    life.token,
                    life.key,
                    e.at(),
                    Duration.between(e.at(), earliest).toMillis(),
                    earliest);
        }
        Instant latest = leaseAtMost(life, e.at());
        Duration delay = Duration.between(latest, e.at());
        if (delay.compareTo(worstExpiryDelay) > 0) {
            worstExpiryDelay = delay;
        }
        Call left = bySweeps ? sweepThatLeft(life, latest, e.at()) : null;
        if (left != null) {
            violation(
                    "token %d of %s lapsed at %s (at the latest), the sweep of %s to %s left it and it"
                            + " was removed only at %s: a ghost for %d ms",
                    life.token,
                    life.key,
                    latest,
                    left.before(),
                    left.after(),
                    e.at(),
                    delay.toMillis());
        }
        if (sweepBound != null) {
            if (delay.compareTo(sweepBound) > 0) {
                violation(
                        "token %d of %s lapsed at %s (at the latest) but was removed only at %s: a ghost for %d ms",
                        life.token, life.key, latest, e.at(), delay.toMillis());
            }
        }
    }

    /**
     * The heartbeats that may have extended {@code life}: the owner's, for all its tabs or one the
     * lock was in.
     */
    private List<Call> beats(Life life) {
        Set<String> views = life.views();
        return byOwner(life.owner).stream()
                .filter(
                        c ->
                                c.kind() == Kind.RENEW
                                        && c.count() != 0
                                        && (c.view() == null || views.contains(c.view()))
                                        && c.after().isAfter(life.from.minus(SLACK))
                                        && c.before().isBefore(life.to()))
                .toList();
    }

    /**
     * The latest the lease can have run to at {@code at}, from the calls that extended it (or the
     * grants seen).
     */
    private Instant leaseAtMost(Life life, Instant at) {
        Instant bound = Instant.MIN;
        for (Stage s : life.stages) {
            if (!s.event().at().isAfter(at)) {
                Instant end = (s.call() == null ? s.event().at() : s.call().after()).plus(lease);
                bound = end.isAfter(bound) ? end : bound;
            }
        }
        for (Lock told : seen.grants.getOrDefault(life.token, List.of())) {
            if (!told.renewedAt().isAfter(at) && told.expiresAt().isAfter(bound)) {
                bound = told.expiresAt();
            }
        }
        for (Call beat : beats(life)) {
            if (!beat.before().isAfter(at) && beat.after().plus(lease).isAfter(bound)) {
                bound = beat.after().plus(lease);
            }
        }
        return bound;
    }

    /**
     * The earliest the lease can have run to when the lock ended at {@code end}, from the calls
     * that certainly extended it: its grants' calls, and heartbeats of its tab (or session) that
     * started after the tab took it and ended well before the end. {@code null} when no grant's
     * call is known.
     */
    private Instant leaseAtLeast(Life life, Instant end) {
        Instant bound = null;
        for (Stage s : life.stages) {
            if (s.call() != null && s.call().after().isBefore(end)) {
                Instant from = s.call().before().plus(lease);
                bound = bound == null || from.isAfter(bound) ? from : bound;
            }
        }
        if (bound == null) {
            return null;
        }
        for (Call beat : beats(life)) {
            if (beat.count() > 0
                    && beat.after().isBefore(end.minus(UNCERTAIN))
                    && beat.before().isAfter(life.from)) {
                String view = life.certainViewAt(beat.before());
                boolean certain =
                        view != null
                                && life.certainViewAt(beat.after()) != null
                                && (beat.view() == null
                                        || beat.view().equals(view)
                                                && view.equals(life.certainViewAt(beat.after())));
                Instant from = beat.before().plus(lease);
                if (certain && from.isAfter(bound)) {
                    bound = from;
                }
            }
        }
        return bound;
    }

    /** Rules 2, 4, 5, 6 and 7 from the calls' side. */
    private void checkCalls() {
        Map<Long, List<Event>> rowsOf = new HashMap<>();
        lives.values()
                .forEach(
                        l -> {
                            l.stages.forEach(
                                    s ->
                                            rowsOf.computeIfAbsent(l.token, t -> new ArrayList<>())
                                                    .add(s.event()));
                            if (l.end != null) {
                                rowsOf.get(l.token).add(l.end);
                            }
                        });
        for (Call call : seen.calls) {
            switch (call.kind()) {
                case ACQUIRE -> checkAcquire(call, rowsOf);
                case RELEASE -> {
                    if (call.outcome() == Outcome.DONE) {
                        boolean found =
                                livesByOwner.getOrDefault(call.owner(), List.of()).stream()
                                        .anyMatch(
                                                l ->
                                                        l.key.equals(call.keys().get(0))
                                                                && l.end != null
                                                                && l.end.type().equals("RELEASED")
                                                                && inside(
                                                                        l.end.at(),
                                                                        call.before(),
                                                                        call.after()));
                        if (!found) {
                            violation(
                                    "%s was told it released %s at %s–%s; the history has no RELEASED row then",
                                    call.owner(), call.keys().get(0), call.before(), call.after());
                        }
                    }
                }
                case FORCE_RELEASE, FORCE_RELEASE_USER -> {
                    for (long token : call.tokens()) {
                        Life life = lives.get(token);
                        if (life == null
                                || life.end == null
                                || !life.end.type().equals("FORCE_RELEASED")
                                || !inside(life.end.at(), call.before(), call.after())) {
                            violation(
                                    "the admin was told token %d was force-released at %s–%s; the history says %s",
                                    token,
                                    call.before(),
                                    call.after(),
                                    life == null || life.end == null
                                            ? "nothing"
                                            : life.end.type() + " at " + life.end.at());
                        }
                    }
                }
                case RENEW -> checkRenewal(call);
                case SAVE -> checkSave(call);
                default -> {}
            }
            checkReach(call);
        }
        checkToldWhatEnded();
    }

    /**
     * Rule 4 from the calls' side: an end call ends everything in its reach that was there when it
     * started — a release the owner's lock on the key (in that tab, when it names one), a tab
     * release the tab's locks, a session end and an admin's release of a person everything they
     * hold, a force release every lock on the key, a take-over that succeeded the others' locks on
     * it — whatever it answered ("not held" included). Such a lock may end otherwise meanwhile (a
     * sweep, an admin); it may not outlive the call. A refused take-over and a hand-over its holder
     * agreed to that changed nothing must have had a reason.
     */
    private void checkReach(Call call) {
        if (call.outcome() == Outcome.FAILED) {
            return;
        }
        switch (call.kind()) {
            case RELEASE ->
                    mustEnd(
                            call,
                            livesByOwner.getOrDefault(call.owner(), List.of()),
                            l -> l.key.equals(call.keys().get(0)),
                            call.view(),
                            "a release of the key");
            case RELEASE_VIEW ->
                    mustEnd(
                            call,
                            livesByOwner.getOrDefault(call.owner(), List.of()),
                            l -> true,
                            call.view(),
                            "a release of its tab");
            case RELEASE_ALL ->
                    mustEnd(
                            call,
                            livesByOwner.getOrDefault(call.owner(), List.of()),
                            l -> true,
                            null,
                            "the end of its session");
            case FORCE_RELEASE_USER ->
                    mustEnd(
                            call,
                            livesByOwner.getOrDefault(call.owner(), List.of()),
                            l -> true,
                            null,
                            "an admin's release of its person");
            case FORCE_RELEASE ->
                    mustEnd(
                            call,
                            seenDuring(
                                    aggregateOf.apply(call.keys().get(0)),
                                    call.before(),
                                    call.after()),
                            l -> l.key.equals(call.keys().get(0)),
                            null,
                            "a force release of the key");
            case TAKE_OVER -> {
                LockKey key = call.keys().get(0);
                if (call.outcome() == Outcome.DONE) {
                    mustEnd(
                            call,
                            seenDuring(aggregateOf.apply(key), call.before(), call.after()),
                            l -> l.key.equals(key) && !l.owner.equals(call.owner()),
                            null,
                            "a take-over of the key");
                } else if (call.outcome() == Outcome.REFUSED && !blockedBeyondTheKey(call, null)) {
                    violation(
                            "%s was refused a take-over of %s at %s–%s with no lock of another session on"
                                    + " the whole or a part live then (those on the key are what it takes)",
                            call.owner(), key, call.before(), call.after());
                }
            }
            case HAND_OVER -> {
                if (call.outcome() == Outcome.REFUSED) {
                    checkHandOverChangedNothing(call);
                }
            }
            default -> {}
        }
    }

    /**
     * Each of {@code lives} in the call's reach ({@code inReach}; held by tab {@code view} all
     * through the call, when one is named) whose grant was there before the call started has ended
     * by the call's end.
     */
    private void mustEnd(
            Call call,
            Collection<Life> lives,
            java.util.function.Predicate<Life> inReach,
            String view,
            String what) {
        for (Life life : lives) {
            if (!inReach.test(life)
                    || !grantVisible(life).isBefore(call.before().minus(SLACK))
                    || !life.to().isAfter(call.after().plus(SLACK))
                    || !life.to().isAfter(call.before())) {
                continue;
            }
            if (view != null && !view.equals(viewThroughout(life, call.before(), call.after()))) {
                continue;
            }
            if (lapsedWhenAnsweredNobody(call, life)) {
                continue;
            }
            violation(
                    "%s by %s at %s–%s (answered %s) left token %d (%s %s of %s, there since %s) live:"
                            + " it ended %s",
                    what,
                    call.owner() == null ? "an admin" : call.owner(),
                    call.before(),
                    call.after(),
                    call.outcome() == Outcome.DONE && call.kind() == Kind.RELEASE
                            ? "released"
                            : call.outcome() == Outcome.REFUSED
                                    ? "not held"
                                    : call.outcome() + " " + call.keys(),
                    life.token,
                    life.modeAt(call.before()),
                    life.key,
                    life.owner,
                    life.from,
                    life.end == null ? "never" : life.end.type() + " at " + life.end.at());
        }
    }

    /**
     * An admin's force release answered "nobody holds it" while the row of a lock whose lease may
     * already have run out was still there: the answer looks at live leases only (a lapsed lock
     * holds nothing, and the sweep's {@code EXPIRED} row follows), so the row is not the call's to
     * end. Only a lock that did end {@code EXPIRED}, and only when the earliest its lease can have
     * run to (from the calls that certainly extended it) lies before the answer; a lock whose lease
     * was certainly running is still reported.
     */
    private boolean lapsedWhenAnsweredNobody(Call call, Life life) {
        if (call.kind() != Kind.FORCE_RELEASE
                || call.outcome() != Outcome.REFUSED
                || life.end == null
                || !life.end.type().equals("EXPIRED")) {
            return false;
        }
        Instant earliest = leaseAtLeast(life, life.end.at());
        return earliest != null && earliest.isBefore(call.after());
    }

    /** When every other transaction could see the lock's row: its first grant's commit. */
    private static Instant grantVisible(Life life) {
        Stage first = life.stages.get(0);
        return first.call() == null ? first.event().at() : first.call().after();
    }

    /**
     * The tab that held the lock all through the window: none when a grant that may have moved it
     * to another tab overlaps the window, or a grant's call is unknown.
     */
    private static String viewThroughout(Life life, Instant before, Instant after) {
        String view = null;
        for (Stage s : life.stages) {
            String type = s.event().type();
            if (!type.equals("ACQUIRED") && !type.equals("REACQUIRED")) {
                continue;
            }
            if (s.call() == null) {
                return null;
            }
            if (s.call().after().isBefore(before.minus(SLACK))) {
                view = s.call().view();
            } else if (!s.call().before().isAfter(after.plus(SLACK))) {
                return null;
            }
        }
        return view;
    }

    /**
     * Whether a lock of another session than the caller's (and than {@code except}'s token) on the
     * whole or a part around the call's key, or on the key itself when {@code except} is given, may
     * have been there during the call: what refuses a take-over or a hand-over.
     */
    private boolean blockedBeyondTheKey(Call call, Long except) {
        LockKey key = call.keys().get(0);
        return seenDuring(aggregateOf.apply(key), call.before(), call.after()).stream()
                .anyMatch(
                        other ->
                                !other.owner.equals(call.owner())
                                        && (except == null
                                                ? !other.key.equals(key)
                                                : other.token != except)
                                        && overlapping(other.key, key, other.aggregate));
    }

    /**
     * A hand-over asked during the call and agreed to by its holder (the torture always agrees)
     * that changed nothing: the asked lock stayed live in its lease, with nothing else in the way.
     */
    private void checkHandOverChangedNothing(Call call) {
        LockKey key = call.keys().get(0);
        for (Event ask : asksByKey.getOrDefault(key, List.of())) {
            if (!inside(ask.at(), call.before(), call.after())) {
                continue;
            }
            Life asked = lives.get(ask.token());
            if (asked == null || !asked.to().isAfter(call.after().plus(SLACK))) {
                continue;
            }
            Instant lease = leaseAtLeast(asked, call.after());
            if (lease == null
                    || !lease.isAfter(call.after().plus(SLACK))
                    || blockedBeyondTheKey(call, asked.token)) {
                continue;
            }
            violation(
                    "a hand-over of %s to %s at %s–%s, asked (row %d) and agreed to, left the holder's token %d"
                            + " live in its lease (until %s at the earliest) and granted nothing",
                    key, call.owner(), call.before(), call.after(), ask.id(), asked.token, lease);
        }
    }

    /** What a tab release, a session end or an admin's release ended, its caller was told. */
    private void checkToldWhatEnded() {
        for (Life life : lives.values()) {
            Call call = life.endCall;
            if (call == null || call.outcome() != Outcome.DONE) {
                continue;
            }
            boolean told =
                    switch (call.kind()) {
                        case RELEASE_VIEW, RELEASE_ALL -> call.keys().contains(life.key);
                        case FORCE_RELEASE, FORCE_RELEASE_USER ->
                                call.tokens().contains(life.token);
                        default -> true;
                    };
            if (!told) {
                violation(
                        "token %d of %s ended %s at %s by a %s whose caller was told only %s",
                        life.token,
                        life.key,
                        life.end.type(),
                        life.end.at(),
                        call.kind(),
                        call.kind() == Kind.FORCE_RELEASE || call.kind() == Kind.FORCE_RELEASE_USER
                                ? call.tokens()
                                : call.keys());
            }
        }
    }

    private void checkAcquire(Call call, Map<Long, List<Event>> rowsOf) {
        if (call.outcome() == Outcome.DONE) {
            for (Lock lock : call.locks()) {
                boolean inCall =
                        rowsOf.getOrDefault(lock.fencingToken(), List.of()).stream()
                                .anyMatch(
                                        e ->
                                                (e.type().equals("ACQUIRED")
                                                                || e.type().equals("REACQUIRED"))
                                                        && inside(
                                                                e.at(),
                                                                call.before(),
                                                                call.after()));
                if (!inCall) {
                    violation(
                            "token %d was granted to %s at %s–%s, the history has no grant of it then",
                            lock.fencingToken(), call.owner(), call.before(), call.after());
                }
                Life life = lives.get(lock.fencingToken());
                if (life != null
                        && life.stages.get(0).call() == call
                        && !inside(lock.acquiredAt(), call.before(), call.after())) {
                    violation(
                            "token %d: the client was told it started at %s, outside its call %s–%s",
                            lock.fencingToken(), lock.acquiredAt(), call.before(), call.after());
                }
                if (!lock.ownerId().equals(call.owner()) || !call.keys().contains(lock.key())) {
                    violation(
                            "token %d: %s asked for %s and was given %s of %s",
                            lock.fencingToken(),
                            call.owner(),
                            call.keys(),
                            lock.key(),
                            lock.ownerId());
                }
            }
        } else if (call.outcome() == Outcome.REFUSED) {
            boolean blocked =
                    call.keys().stream()
                            .anyMatch(
                                    key ->
                                            seenDuring(
                                                            aggregateOf.apply(key),
                                                            call.before(),
                                                            call.after())
                                                    .stream()
                                                    .anyMatch(
                                                            other ->
                                                                    !other.owner.equals(
                                                                                    call.owner())
                                                                            && overlapping(
                                                                                    other.key,
                                                                                    key,
                                                                                    other.aggregate)
                                                                            && (other.modeAt(
                                                                                                    call
                                                                                                            .after())
                                                                                            == LockMode
                                                                                                    .WRITE
                                                                                    || call.mode()
                                                                                            == LockMode
                                                                                                    .WRITE)));
            if (!blocked) {
                violation(
                        "%s was refused %s %s at %s–%s with no conflicting lock of another session live then",
                        call.owner(), call.mode(), call.keys(), call.before(), call.after());
            }
        }
    }

    /** Each aggregate's lives by start, with the latest {@link Life#seenUntil} of each prefix. */
    private Map<LockKey, List<Life>> byAggregate;

    private Map<LockKey, Instant[]> seenUntilOfPrefix;

    /** The lives in {@code aggregate} that others may have seen at some instant between the two. */
    private List<Life> seenDuring(LockKey aggregate, Instant before, Instant after) {
        if (byAggregate == null) {
            byAggregate = new HashMap<>();
            seenUntilOfPrefix = new HashMap<>();
            lives.values()
                    .forEach(
                            l ->
                                    byAggregate
                                            .computeIfAbsent(l.aggregate, a -> new ArrayList<>())
                                            .add(l));
            byAggregate.forEach(
                    (a, inOne) -> {
                        inOne.sort(Comparator.comparing(l -> l.from));
                        Instant[] prefix = new Instant[inOne.size()];
                        Instant latest = Instant.MIN;
                        for (int i = 0; i < prefix.length; i++) {
                            Instant until = inOne.get(i).seenUntil();
                            latest = until.isAfter(latest) ? until : latest;
                            prefix[i] = latest;
                        }
                        seenUntilOfPrefix.put(a, prefix);
                    });
        }
        List<Life> inOne = byAggregate.getOrDefault(aggregate, List.of());
        Instant[] prefix = seenUntilOfPrefix.get(aggregate);
        int lo = 0;
        int hi = inOne.size();
        Instant latestStart = after.plus(SLACK);
        while (lo < hi) { // the first life starting after the call
            int mid = (lo + hi) >>> 1;
            if (inOne.get(mid).from.isBefore(latestStart)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        List<Life> seen = new ArrayList<>();
        Instant earliestEnd = before.minus(SLACK);
        for (int i = lo - 1; i >= 0 && prefix[i].isAfter(earliestEnd); i--) {
            if (inOne.get(i).seenUntil().isAfter(earliestEnd)) {
                seen.add(inOne.get(i));
            }
        }
        return seen;
    }

    private static boolean overlapping(LockKey a, LockKey b, LockKey aggregate) {
        return a.equals(b) || a.equals(aggregate) || b.equals(aggregate);
    }

    /** Rule 5: no more renewed than the tab (or session) could hold during the call. */
    private void checkRenewal(Call call) {
        if (call.count() < 0) {
            return;
        }
        long possible =
                livesByOwner.getOrDefault(call.owner(), List.of()).stream()
                        .filter(
                                l ->
                                        l.from.isBefore(call.after().plus(SLACK))
                                                && l.to().isAfter(call.before().minus(SLACK)))
                        .filter(l -> call.view() == null || l.views().contains(call.view()))
                        .count();
        if (call.count() > possible) {
            violation(
                    "a heartbeat of %s (tab %s) at %s–%s renewed %d locks; that %s held at most %d then",
                    call.owner(),
                    call.view(),
                    call.before(),
                    call.after(),
                    call.count(),
                    call.view() == null ? "session" : "tab",
                    possible);
        }
    }

    /** Rule 6. */
    private void checkSave(Call call) {
        long token = call.tokens().get(0);
        LockKey key = call.keys().get(0);
        Life life = lives.get(token);
        if (call.outcome() == Outcome.DONE) {
            Instant at = call.judgedAt();
            if (life == null || !life.liveAt(at)) {
                violation(
                        "save at %s accepted on token %d of %s, which was not live then%s",
                        at,
                        token,
                        key,
                        life == null
                                ? " (never granted)"
                                : " (" + life.from + "–" + life.to() + ")");
            } else if (!life.owner.equals(call.owner()) || !life.key.equals(key)) {
                violation(
                        "save at %s accepted on token %d presented by %s for %s; the token is %s's lock on %s",
                        at, token, call.owner(), key, life.owner, life.key);
            } else if (life.modeAt(at) != LockMode.WRITE) {
                violation(
                        "save at %s accepted on token %d of %s, held for reading only",
                        at, token, key);
            } else if (at.isAfter(leaseAtMost(life, at).plus(SLACK))) {
                violation(
                        "save at %s accepted on token %d of %s after its lease ran out (at %s at the latest)",
                        at, token, key, leaseAtMost(life, at));
            } else if (call.writtenAt() != null
                    && !life.to().isAfter(call.writtenAt().minus(SLACK))) {
                violation(
                        "save on token %d of %s wrote at %s, after its lock ended (%s at %s)",
                        token, key, call.writtenAt(), life.end.type(), life.end.at());
            }
        } else if (call.outcome() == Outcome.REFUSED
                && life != null
                && life.owner.equals(call.owner())
                && life.key.equals(key)
                && life.liveAt(call.before().minus(SLACK))
                && life.liveAt(call.after().plus(SLACK))
                && life.modeAt(call.before()) == LockMode.WRITE) {
            Instant earliest = leaseAtLeast(life, call.after());
            if (earliest != null && earliest.isAfter(call.after().plus(SLACK))) {
                violation(
                        "save of %s on token %d refused at %s–%s, while the lock was live, WRITE and in its lease"
                                + " (until %s at the earliest)",
                        key, token, call.before(), call.after(), earliest);
            }
        }
    }

    /** Rule 2 from the clients' side: every grant a client was told of is in the history. */
    private void checkGrantsTold() {
        seen.grants.forEach(
                (token, told) -> {
                    if (!lives.containsKey(token)) {
                        violation(
                                "token %d was granted to a client but its grant is not in the history",
                                token);
                    }
                });
    }

    /**
     * Rule 4 at the end: a lock still there whose lease had run out before a sweep began (or, by
     * the clock, longer ago than the sweep bound) is a ghost nobody will remove.
     */
    private void checkNoGhostsLeft(Connection c) throws SQLException {
        if (sweepBound == null && !bySweeps) {
            return;
        }
        Instant now;
        try (ResultSet rs = c.createStatement().executeQuery("select clock_timestamp()")) {
            rs.next();
            now = rs.getTimestamp(1).toInstant();
        }
        for (Life life : lives.values()) {
            if (life.end == null) {
                Instant latest = leaseAtMost(life, now);
                Call left = bySweeps ? sweepThatLeft(life, latest, now) : null;
                if (left != null) {
                    violation(
                            "token %d of %s lapsed at %s (at the latest), the sweep of %s to %s left it"
                                    + " and it is still there at %s: a ghost for %d ms",
                            life.token,
                            life.key,
                            latest,
                            left.before(),
                            left.after(),
                            now,
                            Duration.between(latest, now).toMillis());
                } else if (sweepBound != null && latest.plus(sweepBound).isBefore(now)) {
                    violation(
                            "token %d of %s lapsed at %s (at the latest) and is still there at %s: a ghost for"
                                    + " %d ms",
                            life.token,
                            life.key,
                            latest,
                            now,
                            Duration.between(latest, now).toMillis());
                }
            }
        }
    }

    /**
     * Rule 3: a sweep over each aggregate's segments in start order, against the ones still live.
     */
    private void checkNoConflicts() {
        Map<LockKey, List<Segment>> byAggregate = new HashMap<>();
        for (Life life : lives.values()) {
            LockMode mode = life.stages.get(0).event().mode();
            Instant from = life.from;
            for (Stage s : life.stages) {
                if (s.event().mode() == LockMode.WRITE
                        && mode != LockMode.WRITE) { // an upgrade by a re-grant
                    byAggregate
                            .computeIfAbsent(life.aggregate, a -> new ArrayList<>())
                            .add(new Segment(life, mode, from, s.event().at()));
                    from = s.event().at();
                    mode = LockMode.WRITE;
                }
            }
            byAggregate
                    .computeIfAbsent(life.aggregate, a -> new ArrayList<>())
                    .add(new Segment(life, mode, from, life.to()));
        }
        for (List<Segment> inOne : byAggregate.values()) {
            inOne.sort(Comparator.comparing(Segment::from));
            List<Segment> active = new ArrayList<>();
            for (Segment s : inOne) {
                active.removeIf(a -> !a.to().isAfter(s.from().plus(SLACK)));
                for (Segment a : active) {
                    boolean overlapping =
                            overlapping(a.life().key, s.life().key, s.life().aggregate);
                    boolean exclusive = a.mode() == LockMode.WRITE || s.mode() == LockMode.WRITE;
                    if (overlapping
                            && exclusive
                            && !a.life().owner.equals(s.life().owner)
                            && s.to().isAfter(s.from())) {
                        violation(
                                "two conflicting locks live at once: token %d (%s %s of %s, %s–%s) and token %d"
                                        + " (%s %s of %s, %s–%s)",
                                a.life().token,
                                a.mode(),
                                a.life().key,
                                a.life().owner,
                                a.from(),
                                a.to(),
                                s.life().token,
                                s.mode(),
                                s.life().key,
                                s.life().owner,
                                s.from(),
                                s.to());
                    }
                }
                active.add(s);
            }
        }
    }
}
