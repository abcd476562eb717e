package com.editlock.lock.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockOwner;
import java.sql.Connection;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Each rule of {@link TortureChecker} detects what it is there for. Every test writes a made-up
 * history (audit rows at chosen instants, and what the clients did) that is clean, checks that the
 * checker finds nothing, then plants one wrong row or answer and checks that the checker reports
 * exactly that. Times are milliseconds after the test's start; the lease is 1 s and the sweep bound
 * 0.5 s.
 */
class TortureCheckerTest {

    private static final AtomicLong NEXT_AGGREGATE = new AtomicLong(700_000);
    private static final AtomicLong NEXT_TOKEN = new AtomicLong(-1_000_000_000L);
    private static final Duration LEASE = Duration.ofSeconds(1);

    private final LockStore store = LockStore.shared();
    private final long aggregate = NEXT_AGGREGATE.incrementAndGet();
    private final LockKey key = LockKey.configurator(aggregate);
    private final LockKey variables = LockKey.variables(aggregate);
    private final String sara = "sara-" + UUID.randomUUID();
    private final String omar = "omar-" + UUID.randomUUID();
    private final long mark = store.number("select coalesce(max(id), 0) from lock_event");
    private final Instant start = Instant.now().truncatedTo(ChronoUnit.MILLIS).minusSeconds(3600);
    private final TortureChecker.Observations seen = new TortureChecker.Observations();

    private Instant t(long millis) {
        return start.plusMillis(millis);
    }

    private void row(long at, String type, LockKey on, LockMode mode, String owner, Long token) {
        store.execute(
                "insert into lock_event (occurred_at, event_type, resource_key, aggregate_key, mode, owner_id,"
                        + " user_login, display_name, fencing_token) values (?, ?, ?, ?, ?, ?, 'u', 'U', ?)",
                Timestamp.from(t(at)),
                type,
                on.toString(),
                key.toString(),
                mode == null ? null : mode.name(),
                owner,
                token);
    }

    private Lock lock(
            LockKey on, LockMode mode, String owner, String view, long token, long acquiredAt) {
        return new Lock(
                on,
                key,
                mode,
                owner,
                view,
                "u",
                "U",
                t(acquiredAt),
                t(acquiredAt),
                t(acquiredAt).plus(LEASE),
                token);
    }

    /**
     * A grant to {@code owner} by a call at {@code from}–{@code from + 10}, its row at {@code from
     * + 5}.
     */
    private long granted(String owner, LockKey on, LockMode mode, String view, long from) {
        long token = NEXT_TOKEN.incrementAndGet();
        row(from + 5, "ACQUIRED", on, mode, owner, token);
        seen.acquired(
                owner,
                view,
                List.of(on),
                mode,
                t(from),
                t(from + 10),
                TortureChecker.Outcome.DONE,
                List.of(lock(on, mode, owner, view, token, from + 5)));
        return token;
    }

    private void released(String owner, LockKey on, String view, long token, long from) {
        row(from + 5, "RELEASED", on, LockMode.WRITE, owner, token);
        seen.releasedCall(owner, on, view, t(from), t(from + 10), TortureChecker.Outcome.DONE);
    }

    private List<String> violations() throws Exception {
        try (Connection c = store.separateConnection()) {
            return new TortureChecker(
                            seen,
                            List.of(key, variables),
                            LockStore.BY_ID::aggregateOf,
                            LEASE,
                            mark)
                    .expiresWithin(Duration.ofMillis(500))
                    .check(c)
                    .violations();
        }
    }

    /** The checker as the store's torture runs it: removal judged by the sweeps seen. */
    private List<String> violationsBySweeps() throws Exception {
        try (Connection c = store.separateConnection()) {
            return new TortureChecker(
                            seen,
                            List.of(key, variables),
                            LockStore.BY_ID::aggregateOf,
                            LEASE,
                            mark)
                    .expiresAtTheNextSweep()
                    .check(c)
                    .violations();
        }
    }

    /** Sara takes the record in tab-1, beats, saves and releases it: nothing to report. */
    private long clean() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        seen.renewedCall(sara, "tab-1", t(500), t(510), 1);
        seen.saveCall(sara, key, token, t(600), t(620), t(605), t(610));
        released(sara, key, "tab-1", token, 900);
        assertThat(violations()).as("the clean history").isEmpty();
        return token;
    }

    private void assertOnly(String expected) throws Exception {
        assertThat(violations()).singleElement().asString().contains(expected);
    }

    @Test
    void historyAnEndOfSomethingNeverGranted() throws Exception {
        clean();
        row(950, "RELEASED", key, LockMode.WRITE, sara, 42L);
        seen.releasedCall(sara, key, "tab-1", t(945), t(955), TortureChecker.Outcome.DONE);
        assertThat(violations())
                .anyMatch(v -> v.contains("which was never granted or already ended"));
    }

    @Test
    void historyThatDoesNotAddUpToTheRowsLeft() throws Exception {
        clean();
        store.execute(
                "insert into app_lock (resource_key, aggregate_key, mode, owner_id, user_login, display_name,"
                        + " expires_at, fencing_token) values (?, ?, 'WRITE', ?, 'u', 'U', now() + interval '1 hour', ?)",
                variables.toString(),
                key.toString(),
                omar,
                NEXT_TOKEN.incrementAndGet());
        try {
            assertOnly("replaying the history does not give app_lock");
        } finally {
            store.execute("delete from app_lock where resource_key = ?", variables.toString());
        }
    }

    @Test
    void grantsNoCallMade() throws Exception {
        clean();
        row(1500, "ACQUIRED", variables, LockMode.WRITE, omar, NEXT_TOKEN.incrementAndGet());
        row(1600, "RELEASED", variables, LockMode.WRITE, omar, NEXT_TOKEN.get());
        seen.releasedCall(omar, variables, null, t(1595), t(1605), TortureChecker.Outcome.DONE);
        assertOnly("lies inside no call of an acquire of " + variables);
    }

    @Test
    void grantsAClientWasToldOfButTheHistoryLacks() throws Exception {
        clean();
        seen.acquired(
                omar,
                "tab-1",
                List.of(variables),
                LockMode.WRITE,
                t(2000),
                t(2010),
                TortureChecker.Outcome.DONE,
                List.of(lock(variables, LockMode.WRITE, omar, "tab-1", 77, 2005)));
        assertThat(violations())
                .anyMatch(
                        v ->
                                v.contains("token 77 was granted to " + omar)
                                        && v.contains("the history has no grant of it then"));
    }

    @Test
    void grantsInsideACallThatWasRefused() throws Exception {
        clean();
        long token = NEXT_TOKEN.incrementAndGet();
        row(2005, "ACQUIRED", variables, LockMode.WRITE, omar, token);
        row(2100, "RELEASED", variables, LockMode.WRITE, omar, token);
        seen.releasedCall(omar, variables, null, t(2095), t(2105), TortureChecker.Outcome.DONE);
        seen.acquired(
                omar,
                "tab-1",
                List.of(variables),
                LockMode.WRITE,
                t(2000),
                t(2010),
                TortureChecker.Outcome.REFUSED,
                null);
        assertThat(violations())
                .anyMatch(v -> v.contains("inside a call the client was told was refused"));
    }

    @Test
    void grantsWhoseStartTheClientWasToldLiesOutsideTheCall() throws Exception {
        clean();
        long token = NEXT_TOKEN.incrementAndGet();
        row(2005, "ACQUIRED", variables, LockMode.WRITE, omar, token);
        seen.acquired(
                omar,
                "tab-1",
                List.of(variables),
                LockMode.WRITE,
                t(2000),
                t(2010),
                TortureChecker.Outcome.DONE,
                List.of(lock(variables, LockMode.WRITE, omar, "tab-1", token, 1000)));
        released(omar, variables, "tab-1", token, 2100);
        assertOnly("the client was told it started at");
    }

    /**
     * A grant whose answer was lost and the same client's next ask, which is told the token it
     * already held, 1 ms later: the grant row lies inside the first call and within the slack of
     * the second, the second's row is a re-grant. The start the client was told lies in the first
     * call.
     */
    private long regrantedAfterALostAnswer(boolean lostCallRecorded) {
        long token = NEXT_TOKEN.incrementAndGet();
        row(2007, "ACQUIRED", variables, LockMode.WRITE, omar, token);
        if (lostCallRecorded) {
            seen.acquired(
                    omar,
                    null,
                    List.of(variables),
                    LockMode.WRITE,
                    t(2000),
                    t(2008),
                    TortureChecker.Outcome.UNKNOWN,
                    null);
        }
        row(2011, "REACQUIRED", variables, LockMode.WRITE, omar, token);
        seen.acquired(
                omar,
                null,
                List.of(variables),
                LockMode.WRITE,
                t(2009),
                t(2014),
                TortureChecker.Outcome.DONE,
                List.of(lock(variables, LockMode.WRITE, omar, null, token, 2001)));
        released(omar, variables, null, token, 2100);
        return token;
    }

    @Test
    void aGrantRowGoesToTheCallWhoseWindowHoldsItNotToTheNextAskThatWasToldOfIt() throws Exception {
        clean();
        regrantedAfterALostAnswer(true);
        assertThat(violations()).isEmpty();
    }

    @Test
    void oneCallThatWroteTwoGrantRowsOfOneToken() throws Exception {
        clean();
        long token = regrantedAfterALostAnswer(false);
        assertThat(violations())
                .singleElement()
                .asString()
                .contains("ACQUIRED of token " + token)
                .contains("lies inside no call");
    }

    @Test
    void conflictsOnOneKey() throws Exception {
        long saras = clean();
        long token = granted(omar, key, LockMode.WRITE, "tab-1", 300);
        released(omar, key, "tab-1", token, 400);
        assertOnly("two conflicting locks live at once: token " + saras);
    }

    @Test
    void conflictsBetweenAnAggregateAndAPartOfIt() throws Exception {
        clean();
        long token = granted(omar, variables, LockMode.READ, "tab-1", 300);
        released(omar, variables, "tab-1", token, 400);
        assertOnly("two conflicting locks live at once");
    }

    @Test
    void readersDoNotConflict() throws Exception {
        long saras = granted(sara, variables, LockMode.READ, "tab-1", 100);
        long omars = granted(omar, variables, LockMode.READ, "tab-1", 120);
        released(omar, variables, "tab-1", omars, 400);
        released(sara, variables, "tab-1", saras, 500);
        assertThat(violations()).isEmpty();
    }

    @Test
    void conflictsFromAnUpgradeToWrite() throws Exception {
        long saras = granted(sara, variables, LockMode.READ, "tab-1", 100);
        long omars = granted(omar, variables, LockMode.READ, "tab-1", 120);
        row(305, "REACQUIRED", variables, LockMode.WRITE, sara, saras);
        seen.acquired(
                sara,
                "tab-1",
                List.of(variables),
                LockMode.WRITE,
                t(300),
                t(310),
                TortureChecker.Outcome.DONE,
                List.of(lock(variables, LockMode.WRITE, sara, "tab-1", saras, 100)));
        released(omar, variables, "tab-1", omars, 400);
        released(sara, variables, "tab-1", saras, 500);
        assertOnly("two conflicting locks live at once: token " + omars + " (READ");
    }

    @Test
    void releasesNoCallOfTheOwnerMade() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        row(905, "RELEASED", key, LockMode.WRITE, sara, token);
        seen.forced(key, t(900), t(910), List.of()); // an admin, not Sara, was busy then
        assertThat(violations())
                .anyMatch(v -> v.contains("lies inside no call of a release of " + key));
    }

    @Test
    void releasesAClientWasToldOfButTheHistoryEndsOtherwise() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        seen.releasedCall(sara, key, "tab-1", t(900), t(910), TortureChecker.Outcome.DONE);
        row(905, "FORCE_RELEASED", key, LockMode.WRITE, sara, token);
        seen.forced(
                key, t(900), t(910), List.of(lock(key, LockMode.WRITE, sara, "tab-1", token, 105)));
        assertOnly("was told it released " + key);
    }

    @Test
    void tabReleasesOfATabThatDidNotHoldIt() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        row(905, "VIEW_CLOSED", key, LockMode.WRITE, sara, token);
        seen.ended(TortureChecker.Kind.RELEASE_VIEW, sara, "tab-1", t(900), t(910), List.of(key));
        assertThat(violations()).isEmpty();

        seen.calls.removeIf(c -> c.kind() == TortureChecker.Kind.RELEASE_VIEW);
        seen.ended(TortureChecker.Kind.RELEASE_VIEW, sara, "tab-2", t(900), t(910), List.of(key));
        assertOnly("a release of the tab that held it (tab-1)");
    }

    @Test
    void sessionEndsNoCallMade() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        row(905, "SESSION_ENDED", key, LockMode.WRITE, sara, token);
        assertOnly("the end of session " + sara);
    }

    @Test
    void forceReleasesNoAdminMadeOrAuditedAsSomethingElse() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        row(905, "FORCE_RELEASED", key, LockMode.WRITE, sara, token);
        assertOnly("an admin's force release of " + key);

        seen.forced(
                key, t(900), t(910), List.of(lock(key, LockMode.WRITE, sara, "tab-1", token, 105)));
        assertThat(violations()).isEmpty();

        long other = granted(sara, variables, LockMode.WRITE, "tab-1", 1000);
        row(1205, "RELEASED", variables, LockMode.WRITE, sara, other);
        seen.forced(
                variables,
                t(1200),
                t(1210),
                List.of(lock(variables, LockMode.WRITE, sara, "tab-1", other, 1005)));
        assertThat(violations())
                .hasSize(2)
                .anyMatch(
                        v ->
                                v.contains("the admin was told token " + other)
                                        && v.contains("the history says" + " RELEASED"))
                .anyMatch(v -> v.contains("lies inside no call of a release of " + variables));
    }

    @Test
    void expiriesBeforeTheLeaseRanOut() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        seen.renewedCall(sara, "tab-1", t(500), t(510), 1);
        seen.swept(t(1300), t(1310));
        row(1305, "EXPIRED", key, LockMode.WRITE, sara, token);
        assertOnly("expired at " + t(1305) + ", 195 ms before its lease ran out");
    }

    @Test
    void expiriesLaterThanTheSweepBound() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        seen.swept(t(1500), t(1510));
        row(1505, "EXPIRED", key, LockMode.WRITE, sara, token);
        assertThat(violations()).isEmpty();

        long late = granted(sara, variables, LockMode.WRITE, "tab-2", 2000);
        seen.swept(t(3600), t(3610));
        row(3605, "EXPIRED", variables, LockMode.WRITE, sara, late);
        assertOnly("a ghost for 595 ms");
    }

    @Test
    void expiriesLeftBehindByAWholeSweepAfterTheLeaseRanOut() throws Exception {
        // Sara's lease runs to 1110 at the latest; the sweep of 1100–1120 began before that and
        // may rightly leave it; the one of 1200–1210 began after and must not.
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        seen.swept(t(1100), t(1120));
        seen.swept(t(1400), t(1410));
        row(1405, "EXPIRED", key, LockMode.WRITE, sara, token);
        assertThat(violationsBySweeps())
                .as("only a sweep that began too early passed it")
                .isEmpty();

        seen.swept(t(1200), t(1210));
        assertThat(violationsBySweeps())
                .singleElement()
                .asString()
                .contains("the sweep of " + t(1200) + " to " + t(1210) + " left it")
                .contains("a ghost for 295 ms");
    }

    @Test
    void aSweepMayLeaveARowItsOwnersStalledCallHoldsButNotTheSweepAfter() throws Exception {
        // Sara's lease runs to 1110 at the latest. Her beat of 1150–1900 stalled with her row
        // locked (it renewed nothing: the lease had run out); the sweep of 1200–1210 skipped the
        // locked row, as it is built to, and the one of 1950–1960 took it.
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        seen.renewedCall(sara, "tab-1", t(1150), t(1900), 0);
        seen.swept(t(1200), t(1210));
        seen.swept(t(1950), t(1960));
        row(1955, "EXPIRED", key, LockMode.WRITE, sara, token);
        assertThat(violationsBySweeps())
                .as("the sweep ran beside a call that held the row")
                .isEmpty();

        // Once her call had ended nothing held the row: a sweep then must take it.
        seen.swept(t(1920), t(1930));
        assertThat(violationsBySweeps())
                .singleElement()
                .asString()
                .contains("the sweep of " + t(1920) + " to " + t(1930) + " left it")
                .contains("a ghost for 845 ms");
    }

    @Test
    void expiriesLateByTheClockAloneAreTheSweepersAffairNotTheStores() throws Exception {
        // The thread that calls the sweep stalled for 4 s: no sweep began between the lapse and
        // the removal, so the store did its part, while the clock bound sees a ghost.
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        seen.swept(t(5100), t(5110));
        row(5105, "EXPIRED", key, LockMode.WRITE, sara, token);
        assertThat(violationsBySweeps()).isEmpty();
        assertOnly("a ghost for 3995 ms");
    }

    @Test
    void ghostsLeftAtTheEndAfterASweepThatBeganOnceTheLeaseRanOut() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        store.execute(
                "insert into app_lock (resource_key, aggregate_key, mode, owner_id, user_login, display_name,"
                        + " expires_at, fencing_token) values (?, ?, 'WRITE', ?, 'u', 'U', ?, ?)",
                key.toString(),
                key.toString(),
                sara,
                Timestamp.from(t(1105)),
                token);
        try {
            seen.swept(t(1100), t(1120));
            assertThat(violationsBySweeps()).as("no whole sweep after the lapse yet").isEmpty();
            seen.swept(t(1200), t(1210));
            assertThat(violationsBySweeps())
                    .singleElement()
                    .asString()
                    .contains("the sweep of " + t(1200) + " to " + t(1210) + " left it")
                    .contains("is still there at");
        } finally {
            store.execute("delete from app_lock where resource_key = ?", key.toString());
        }
    }

    @Test
    void expiriesNoSweepOrCleanUpMade() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        row(1305, "EXPIRED", key, LockMode.WRITE, sara, token);
        assertOnly("a sweep or a clean-up of " + key);
    }

    @Test
    void heartbeatsThatRenewMoreThanTheTabHeld() throws Exception {
        clean();
        seen.renewedCall(sara, "tab-2", t(700), t(710), 1);
        assertOnly("renewed 1 locks; that tab held at most 0");
    }

    @Test
    void revivalsNoHeartbeatOfThatTabMade() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        row(1205, "RENEWED_AFTER_LAPSE", key, LockMode.WRITE, sara, token);
        seen.renewedCall(sara, "tab-2", t(1200), t(1210), 0);
        released(sara, key, "tab-1", token, 1500);
        assertOnly("lies inside no call of a heartbeat of " + sara);
    }

    @Test
    void savesOnATokenNoLongerLive() throws Exception {
        long token = clean();
        seen.saveCall(sara, key, token, t(950), t(970), t(955), t(960));
        assertOnly(
                "save at "
                        + t(955)
                        + " accepted on token "
                        + token
                        + " of "
                        + key
                        + ", which was not live then");
    }

    @Test
    void savesOnALockHeldForReading() throws Exception {
        long token = granted(sara, variables, LockMode.READ, "tab-1", 100);
        released(sara, variables, "tab-1", token, 900);
        seen.saveCall(sara, variables, token, t(600), t(620), t(605), t(610));
        assertOnly("held for reading only");
    }

    @Test
    void savesAfterTheLeaseRanOut() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        seen.saveCall(sara, key, token, t(1200), t(1220), t(1205), t(1210));
        seen.swept(t(1400), t(1410));
        row(1405, "EXPIRED", key, LockMode.WRITE, sara, token);
        assertOnly("after its lease ran out (at " + t(1110) + " at the latest)");
    }

    @Test
    void savesPresentingAnotherSessionsToken() throws Exception {
        long token = clean();
        seen.saveCall(omar, key, token, t(700), t(720), t(705), t(710));
        assertOnly("the token is " + sara + "'s lock on " + key);
    }

    @Test
    void savesThatWroteAfterTheLockEnded() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        seen.saveCall(sara, key, token, t(600), t(960), t(605), t(950));
        released(sara, key, "tab-1", token, 900);
        assertOnly("wrote at " + t(950) + ", after its lock ended (RELEASED");
    }

    @Test
    void savesRefusedWhileTheLockWasLiveAndInItsLease() throws Exception {
        long token = clean();
        seen.saveCall(sara, key, token, t(300), t(320), null, null);
        assertOnly("refused at " + t(300));
    }

    @Test
    void denialsNoRefusedCallMadeAndRefusalsNothingBlocked() throws Exception {
        clean();
        row(305, "DENIED", key, LockMode.WRITE, omar, null);
        assertOnly("lies inside no call of a refused acquire by " + omar);

        seen.acquired(
                omar,
                "tab-1",
                List.of(key),
                LockMode.WRITE,
                t(300),
                t(310),
                TortureChecker.Outcome.REFUSED,
                null);
        assertThat(violations()).isEmpty();

        seen.acquired(
                omar,
                "tab-1",
                List.of(key),
                LockMode.WRITE,
                t(2000),
                t(2010),
                TortureChecker.Outcome.REFUSED,
                null);
        assertOnly("with no conflicting lock of another session live then");
    }

    /**
     * A screen's Done or Save: a release of what the tab holds on its record, whose page says the
     * same whether or not it still held it.
     */
    private void leftByTheScreen(long from) {
        seen.call(
                new TortureChecker.Call(
                        TortureChecker.Kind.RELEASE,
                        sara,
                        "tab-1",
                        List.of(key),
                        null,
                        t(from),
                        t(from + 50),
                        TortureChecker.Outcome.UNKNOWN,
                        List.of(),
                        List.of(),
                        -1,
                        null,
                        null));
    }

    @Test
    void locksAScreenLeftLiveOnAfterTheCall() throws Exception {
        long token = clean();
        leftByTheScreen(800);
        assertOnly("a release of the key by " + sara + " at " + t(800));
        assertThat(violations()).singleElement().asString().contains("left token " + token);
    }

    @Test
    void locksAScreenLeftAfterAnAdminReleasedThemAreFine() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        row(505, "FORCE_RELEASED", key, LockMode.WRITE, sara, token);
        seen.forced(
                key, t(500), t(510), List.of(lock(key, LockMode.WRITE, sara, "tab-1", token, 105)));
        leftByTheScreen(800);
        assertThat(violations()).isEmpty();
    }

    @Test
    void theRealStoreWritesAHistoryTheCheckerAccepts() throws Exception {
        JdbcLockManager locks = store.manager(LEASE);
        LockOwner owner = new LockOwner(sara, "sara", "Sara");
        Instant before = Instant.now();
        Lock lock =
                store.asDeclared(
                        "acquire", () -> locks.acquire(key, LockMode.WRITE, owner, "tab-1"));
        seen.acquired(
                sara,
                "tab-1",
                List.of(key),
                LockMode.WRITE,
                before,
                Instant.now(),
                TortureChecker.Outcome.DONE,
                List.of(lock));
        before = Instant.now();
        int renewed = store.asDeclared("renew", () -> locks.renew(sara, "tab-1"));
        seen.renewedCall(sara, "tab-1", before, Instant.now(), renewed);
        before = Instant.now();
        assertThat(store.asDeclared("release", () -> locks.release(key, sara, "tab-1"))).isTrue();
        seen.releasedCall(sara, key, "tab-1", before, Instant.now(), TortureChecker.Outcome.DONE);

        try (Connection c = store.separateConnection()) {
            TortureChecker.Report report =
                    new TortureChecker(
                                    seen,
                                    List.of(key, variables),
                                    LockStore.BY_ID::aggregateOf,
                                    LEASE,
                                    mark)
                            .check(c);
            assertThat(report.violations()).isEmpty();
            assertThat(report.rowsMatched()).isEqualTo(2);
        }
    }

    /** Omar's take-over of Sara's lock: her TAKEN_OVER line, then his grant, in his one call. */
    private long tookOver(long saras, long from, TortureChecker.Outcome outcome, boolean grant) {
        row(from + 5, "TAKEN_OVER", key, LockMode.WRITE, sara, saras);
        long token = NEXT_TOKEN.incrementAndGet();
        if (grant) {
            row(from + 6, "ACQUIRED", key, LockMode.WRITE, omar, token);
        }
        seen.tookOver(
                omar,
                "tab-9",
                key,
                t(from),
                t(from + 10),
                outcome,
                grant ? lock(key, LockMode.WRITE, omar, "tab-9", token, from + 6) : null);
        return token;
    }

    @Test
    void aTakeOverIsTheHoldersEndAndTheTakersGrantWithNothingBetween() throws Exception {
        long saras = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        long omars = tookOver(saras, 300, TortureChecker.Outcome.DONE, true);
        released(omar, key, "tab-9", omars, 900);
        assertThat(violations()).as("a clean take-over").isEmpty();
    }

    @Test
    void aTakeOverWhoseReleaseLetsAThirdAcquirerInIsAGap() throws Exception {
        long saras = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        tookOver(saras, 300, TortureChecker.Outcome.REFUSED, false);
        String ada = "ada-" + UUID.randomUUID();
        long adas = granted(ada, key, LockMode.WRITE, "tab-3", 400);
        released(ada, key, "tab-3", adas, 900);
        assertThat(violations())
                .anySatisfy(v -> assertThat(v).startsWith("a gap after the take-over of " + key));
    }

    @Test
    void aTakenOverLineOutsideAnyTakeOverIsReported() throws Exception {
        long saras = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        row(305, "TAKEN_OVER", key, LockMode.WRITE, sara, saras);
        assertThat(violations()).anySatisfy(v -> assertThat(v).contains("a take-over of " + key));
    }

    /**
     * Omar asks for Sara's lock and (for her) hands it over: the request line, her HANDED_OVER
     * line, then his grant, in his one call.
     */
    private long handedOver(long saras, long from, TortureChecker.Outcome outcome, boolean grant) {
        row(from + 2, "HANDOVER_ASKED", key, LockMode.WRITE, sara, saras);
        row(from + 5, "HANDED_OVER", key, LockMode.WRITE, sara, saras);
        long token = NEXT_TOKEN.incrementAndGet();
        if (grant) {
            row(from + 6, "ACQUIRED", key, LockMode.WRITE, omar, token);
        }
        seen.handedOver(
                omar,
                "tab-9",
                key,
                t(from),
                t(from + 10),
                outcome,
                grant ? lock(key, LockMode.WRITE, omar, "tab-9", token, from + 6) : null);
        return token;
    }

    @Test
    void aHandOverIsTheHoldersEndAndTheAskersGrantWithNothingBetween() throws Exception {
        long saras = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        long omars = handedOver(saras, 300, TortureChecker.Outcome.DONE, true);
        released(omar, key, "tab-9", omars, 900);
        assertThat(violations()).as("a clean hand-over").isEmpty();
    }

    @Test
    void aHandOverThatLetsAThirdAcquirerInIsAGap() throws Exception {
        long saras = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        handedOver(saras, 300, TortureChecker.Outcome.REFUSED, false);
        String ada = "ada-" + UUID.randomUUID();
        long adas = granted(ada, key, LockMode.WRITE, "tab-3", 400);
        released(ada, key, "tab-3", adas, 900);
        assertThat(violations())
                .anySatisfy(v -> assertThat(v).startsWith("a gap after the hand-over of " + key));
    }

    @Test
    void aHandedOverLineOrARequestOutsideAnyHandOverIsReported() throws Exception {
        long saras = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        row(303, "HANDOVER_ASKED", key, LockMode.WRITE, sara, saras);
        row(305, "HANDED_OVER", key, LockMode.WRITE, sara, saras);
        assertThat(violations())
                .anySatisfy(v -> assertThat(v).contains("a hand-over of " + key))
                .anySatisfy(v -> assertThat(v).contains("a request to hand over " + key));
    }

    @Test
    void aHandOverAskedOfALockThatHadEndedIsReported() throws Exception {
        long saras = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        released(sara, key, "tab-1", saras, 200);
        row(302, "HANDOVER_ASKED", key, LockMode.WRITE, sara, saras);
        seen.handedOver(omar, "tab-9", key, t(300), t(310), TortureChecker.Outcome.REFUSED, null);
        assertThat(violations())
                .anySatisfy(v -> assertThat(v).contains("a hand-over asked of token " + saras));
    }

    @Test
    void aLockHandedOverThatNobodyAskedForIsReported() throws Exception {
        long saras = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        row(305, "HANDED_OVER", key, LockMode.WRITE, sara, saras);
        long token = NEXT_TOKEN.incrementAndGet();
        row(306, "ACQUIRED", key, LockMode.WRITE, omar, token);
        seen.handedOver(
                omar,
                "tab-9",
                key,
                t(300),
                t(310),
                TortureChecker.Outcome.DONE,
                lock(key, LockMode.WRITE, omar, "tab-9", token, 306));
        assertThat(violations())
                .anySatisfy(
                        v ->
                                assertThat(v)
                                        .contains(
                                                "token "
                                                        + saras
                                                        + " on "
                                                        + key
                                                        + " handed over, but nobody asked"));
    }

    // ---- every end judged: an end call ends everything in its reach ----

    /** Sara's lock ends at last, by her session's end at 1500 ms. */
    private void sessionEnds(String owner, LockKey on, long token) {
        row(1505, "SESSION_ENDED", on, LockMode.WRITE, owner, token);
        seen.ended(TortureChecker.Kind.RELEASE_ALL, owner, null, t(1500), t(1510), List.of(on));
    }

    @Test
    void releasesAnsweredNotHeldWhileTheLockWasThere() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        seen.releasedCall(sara, key, "tab-2", t(900), t(910), TortureChecker.Outcome.REFUSED);
        sessionEnds(sara, key, token);
        assertThat(violations()).as("another tab's release need not free it").isEmpty();

        seen.releasedCall(sara, key, "tab-1", t(1000), t(1010), TortureChecker.Outcome.REFUSED);
        assertOnly("a release of the key by " + sara);
        assertThat(violations()).singleElement().asString().contains("(answered not held)");
    }

    @Test
    void tabReleasesThatLeaveTheTabsLockLive() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        seen.ended(TortureChecker.Kind.RELEASE_VIEW, sara, "tab-2", t(900), t(910), List.of());
        sessionEnds(sara, key, token);
        assertThat(violations()).isEmpty();

        seen.ended(TortureChecker.Kind.RELEASE_VIEW, sara, "tab-1", t(1000), t(1010), List.of());
        assertOnly("a release of its tab by " + sara);
    }

    @Test
    void sessionEndsThatKeepAReadLock() throws Exception {
        long whole = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        long reading = granted(sara, variables, LockMode.READ, "tab-2", 200);
        row(905, "SESSION_ENDED", key, LockMode.WRITE, sara, whole);
        seen.ended(TortureChecker.Kind.RELEASE_ALL, sara, null, t(900), t(910), List.of(key));
        row(1505, "FORCE_RELEASED", variables, LockMode.READ, sara, reading);
        seen.forced(
                variables,
                t(1500),
                t(1510),
                List.of(lock(variables, LockMode.READ, sara, "tab-2", reading, 205)));
        assertOnly("the end of its session by " + sara);
        assertThat(violations()).singleElement().asString().contains("token " + reading);
    }

    @Test
    void forceReleasesThatLeaveAReaderOnTheKey() throws Exception {
        long saras = granted(sara, key, LockMode.READ, "tab-1", 100);
        long omars = granted(omar, key, LockMode.READ, "tab-9", 200);
        row(905, "FORCE_RELEASED", key, LockMode.READ, sara, saras);
        seen.forced(
                key, t(900), t(910), List.of(lock(key, LockMode.READ, sara, "tab-1", saras, 105)));
        released(omar, key, "tab-9", omars, 1500);
        assertOnly("a force release of the key by an admin");
        assertThat(violations()).singleElement().asString().contains("token " + omars);
    }

    /**
     * The admin is told nobody holds the key while the row of a lock whose lease ran out still
     * waits for the sweep: the lapsed lock held nothing. A lock whose lease a heartbeat had
     * certainly extended past the answer is still reported.
     */
    @Test
    void forceReleasesAnsweredNobodyWhileOnlyALapsedRowWasThere() throws Exception {
        long lapsed = granted(sara, key, LockMode.READ, "tab-1", 100); // lease to 1100 at least
        refusedForceRelease(key, 1200);
        seen.swept(t(1300), t(1310));
        row(1305, "EXPIRED", key, LockMode.READ, sara, lapsed);
        assertThat(violations()).as("a lapsed lock is not the admin's to free").isEmpty();

        long running = granted(sara, variables, LockMode.WRITE, "tab-2", 2000);
        seen.renewedCall(sara, "tab-2", t(2500), t(2510), 1); // lease to 3500 at least
        refusedForceRelease(variables, 3200);
        seen.swept(t(3600), t(3610));
        row(3605, "EXPIRED", variables, LockMode.WRITE, sara, running);
        assertOnly("a force release of the key by an admin");
        assertThat(violations())
                .singleElement()
                .asString()
                .contains("(answered not held) left token " + running);
    }

    private void refusedForceRelease(LockKey on, long from) {
        seen.call(
                new TortureChecker.Call(
                        TortureChecker.Kind.FORCE_RELEASE,
                        null,
                        null,
                        List.of(on),
                        null,
                        t(from),
                        t(from + 10),
                        TortureChecker.Outcome.REFUSED,
                        List.of(),
                        List.of(),
                        -1,
                        null,
                        null));
    }

    /**
     * Two admins force-release the same key at once: the row goes to the one told of the token, the
     * other (told of nothing) released nothing.
     */
    @Test
    void twoForceReleasesAtOnceEachToldOfWhatItReleased() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        seen.forced(key, t(900), t(912), List.of());
        row(905, "FORCE_RELEASED", key, LockMode.WRITE, sara, token);
        seen.forced(
                key, t(901), t(910), List.of(lock(key, LockMode.WRITE, sara, "tab-1", token, 105)));
        assertThat(violations()).isEmpty();
    }

    @Test
    void releasesOfEverythingAPersonHoldsThatLeaveALock() throws Exception {
        long whole = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        long reading = granted(sara, variables, LockMode.READ, "tab-2", 200);
        row(905, "FORCE_RELEASED", key, LockMode.WRITE, sara, whole);
        seen.forcedUser(
                sara,
                t(900),
                t(910),
                List.of(lock(key, LockMode.WRITE, sara, "tab-1", whole, 105)));
        sessionEnds(sara, variables, reading);
        assertOnly("an admin's release of its person by " + sara);
    }

    @Test
    void takeOversRefusedWithOnlyTheKeysHolderInTheWay() throws Exception {
        long part = granted(sara, variables, LockMode.WRITE, "tab-1", 100);
        seen.tookOver(omar, "tab-9", key, t(300), t(310), TortureChecker.Outcome.REFUSED, null);
        released(sara, variables, "tab-1", part, 900);
        assertThat(violations()).as("a part held by another refuses a take-over").isEmpty();

        long whole = granted(sara, key, LockMode.WRITE, "tab-1", 1000);
        seen.tookOver(omar, "tab-9", key, t(1100), t(1110), TortureChecker.Outcome.REFUSED, null);
        released(sara, key, "tab-1", whole, 1900);
        assertOnly("was refused a take-over of " + key);
    }

    @Test
    void takeOversThatEndTheTakersOwnLock() throws Exception {
        long omars = granted(omar, key, LockMode.READ, "tab-9", 100);
        row(305, "TAKEN_OVER", key, LockMode.READ, omar, omars);
        long token = NEXT_TOKEN.incrementAndGet();
        row(306, "ACQUIRED", key, LockMode.WRITE, omar, token);
        seen.tookOver(
                omar,
                "tab-9",
                key,
                t(300),
                t(310),
                TortureChecker.Outcome.DONE,
                lock(key, LockMode.WRITE, omar, "tab-9", token, 306));
        released(omar, key, "tab-9", token, 900);
        assertThat(violations())
                .anySatisfy(v -> assertThat(v).contains("lies inside no call of a take-over"));
    }

    @Test
    void handOversAgreedToThatChangedNothing() throws Exception {
        long saras = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        row(302, "HANDOVER_ASKED", key, LockMode.WRITE, sara, saras);
        seen.handedOver(omar, "tab-9", key, t(300), t(310), TortureChecker.Outcome.REFUSED, null);
        released(sara, key, "tab-1", saras, 900);
        assertOnly("and agreed to, left the holder's token " + saras);
    }

    @Test
    void aDeclinedRequestEndsNothingAndItsLinesLieInsideIt() throws Exception {
        long saras = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        row(302, "HANDOVER_ASKED", key, LockMode.WRITE, sara, saras);
        row(306, "HANDOVER_DECLINED", key, LockMode.WRITE, sara, saras);
        seen.requested(omar, null, key, t(300), t(310));
        released(sara, key, "tab-1", saras, 900);
        assertThat(violations()).as("a declined request, Sara's lock kept").isEmpty();
    }

    @Test
    void endsTheCallerWasNotToldOf() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        row(905, "VIEW_CLOSED", key, LockMode.WRITE, sara, token);
        seen.ended(TortureChecker.Kind.RELEASE_VIEW, sara, "tab-1", t(900), t(910), List.of());
        assertOnly("by a RELEASE_VIEW whose caller was told only []");
    }

    @Test
    void ghostsLeftAtTheEnd() throws Exception {
        long token = granted(sara, key, LockMode.WRITE, "tab-1", 100);
        store.execute(
                "insert into app_lock (resource_key, aggregate_key, mode, owner_id, user_login, display_name,"
                        + " expires_at, fencing_token) values (?, ?, 'WRITE', ?, 'u', 'U', ?, ?)",
                key.toString(),
                key.toString(),
                sara,
                Timestamp.from(t(1105)),
                token);
        try {
            assertOnly("is still there at");
            assertThat(violations()).singleElement().asString().contains("a ghost for");
        } finally {
            store.execute("delete from app_lock where resource_key = ?", key.toString());
        }
    }
}
