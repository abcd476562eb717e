package com.editlock.lock.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.editlock.lock.Beat;
import com.editlock.lock.HandoverRefusedException;
import com.editlock.lock.HandoverRequest;
import com.editlock.lock.HistoryQuery;
import com.editlock.lock.Lock;
import com.editlock.lock.LockEvent;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockLimitException;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockNotHeldException;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LockPage;
import com.editlock.lock.LockQuery;
import com.editlock.lock.LockUnavailableException;
import com.editlock.platform.Database;
import com.editlock.platform.Settings;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Every rule of the lock protocol, on the store itself against a real PostgreSQL, without an
 * application server. Races are forced with a second connection that holds a row lock at the moment
 * that matters, never left to timing. Each test uses aggregates of its own (see {@link LockStore}),
 * so the tests are independent of each other and of their order.
 */
class LockStoreContractTest {

    /**
     * Each task a thread of its own: the tasks wait on each other, and on Java 25 (unlike 17) an
     * async task without an executor goes to the common pool, which has one worker on two cores.
     */
    private static final java.util.concurrent.ExecutorService ASYNC =
            java.util.concurrent.Executors.newCachedThreadPool(
                    Thread.ofPlatform().daemon().name("async-", 0).factory());

    private static final AtomicLong NEXT_AGGREGATE = new AtomicLong(100);

    private final LockStore store = LockStore.shared();
    private final JdbcLockManager locks = store.manager(Duration.ofSeconds(60));

    private final JdbcLockAdministration admin = store.administration();

    /** This test's own aggregate, with its variables and items g*100+1, g*100+2, … inside. */
    private final long g = NEXT_AGGREGATE.incrementAndGet();

    private final LockKey whole = LockKey.configurator(g);
    private final LockKey variables = LockKey.variables(g);
    private final LockKey frame = LockKey.itemFilters(g * 100 + 1);
    private final LockKey wheels = LockKey.itemFilters(g * 100 + 2);

    private final LockOwner sara = owner("Sara");
    private final LockOwner omar = owner("Omar");
    private final LockOwner ada = owner("Ada");

    private static LockOwner owner(String name) {
        return new LockOwner(UUID.randomUUID().toString(), name.toLowerCase(), name);
    }

    private Lock acquire(LockKey key, LockMode mode, LockOwner owner, String view) {
        return store.asDeclared(
                "acquire", () -> locks.acquire(key, mode, owner, view)); // as the API calls it
    }

    private Lock write(LockKey key, LockOwner owner) {
        return acquire(key, LockMode.WRITE, owner, null);
    }

    private Lock verify(Lock lock) {
        return store.inTransaction(
                () -> locks.verify(lock.key(), lock.ownerId(), lock.fencingToken()));
    }

    /** Event types of {@code key}, oldest first. */
    private List<LockEventType> history(LockKey key) {
        List<LockEventType> newestFirst =
                new java.util.ArrayList<>(
                        admin.history(key, 1000).stream().map(LockEvent::type).toList());
        java.util.Collections.reverse(newestFirst);
        return newestFirst;
    }

    private void lapse(LockKey key) {
        store.execute(
                "update app_lock set expires_at = statement_timestamp() - interval '1 second'"
                        + " where resource_key = ?",
                key.toString());
    }

    // ---- modes ----

    @Test
    void readersShareAndAWriterExcludesEveryone() {
        acquire(frame, LockMode.READ, sara, null);
        acquire(frame, LockMode.READ, omar, null);

        assertThatThrownBy(() -> write(frame, ada))
                .isInstanceOfSatisfying(
                        LockUnavailableException.class,
                        e ->
                                assertThat(e.holders())
                                        .extracting(Lock::displayName)
                                        .containsExactlyInAnyOrder("Sara", "Omar"));
        assertThatThrownBy(() -> write(frame, sara))
                .as("no upgrade while another reader is there")
                .isInstanceOf(LockUnavailableException.class);

        store.inTransaction(() -> locks.release(frame, omar.ownerId(), null));
        Lock upgraded = write(frame, sara);
        assertThat(upgraded.mode()).as("upgrade when alone").isEqualTo(LockMode.WRITE);
        assertThat(acquire(frame, LockMode.READ, sara, null).mode())
                .as("a re-acquire never downgrades")
                .isEqualTo(LockMode.WRITE);
        assertThatThrownBy(() -> acquire(frame, LockMode.READ, omar, null))
                .isInstanceOf(LockUnavailableException.class);
    }

    @Test
    void aReadLockNeverWrites() {
        Lock read = acquire(whole, LockMode.READ, sara, null);

        assertThatThrownBy(() -> verify(read))
                .isInstanceOf(LockNotHeldException.class)
                .hasMessageContaining("for reading only")
                .hasMessageContaining("Nothing was saved");
        Lock written = write(whole, sara);
        assertThat(verify(written).mode()).isEqualTo(LockMode.WRITE);
    }

    // ---- the aggregate and its sub-pages ----

    @Test
    void anAggregateLockAndTheSubPagesInsideItExcludeEachOtherButSubPagesCoexist() {
        write(frame, sara);
        write(wheels, omar);
        write(variables, omar);

        assertThatThrownBy(() -> write(whole, ada))
                .isInstanceOfSatisfying(
                        LockUnavailableException.class,
                        e ->
                                assertThat(e.holders())
                                        .extracting(Lock::displayName)
                                        .contains("Sara", "Omar"));
        assertThatThrownBy(() -> acquire(whole, LockMode.READ, ada, null))
                .as("a reader of the whole waits for " + "the writers inside it")
                .isInstanceOf(LockUnavailableException.class);

        store.inTransaction(() -> locks.releaseAll(sara.ownerId()));
        store.inTransaction(() -> locks.releaseAll(omar.ownerId()));
        write(whole, ada);
        assertThatThrownBy(() -> write(wheels, sara))
                .isInstanceOfSatisfying(
                        LockUnavailableException.class,
                        e -> assertThat(e.holder().key()).isEqualTo(whole));
    }

    /**
     * A script that retries a refused lock in a loop writes one history row a minute, not one a
     * try: the same owner refused the same record in the same mode again within {@code
     * DENIAL_WINDOW_SECONDS} is counted on that row; another owner, another mode or the window
     * passed gets a row of its own.
     */
    @Test
    void theSameRefusalWithinAMinuteIsOneRowWithItsRepeatsCounted() {
        write(wheels, omar);
        for (int i = 0; i < 50; i++) {
            assertThatThrownBy(() -> write(wheels, sara))
                    .isInstanceOf(LockUnavailableException.class);
        }
        assertThatThrownBy(() -> acquire(wheels, LockMode.READ, sara, null))
                .isInstanceOf(LockUnavailableException.class);
        assertThatThrownBy(() -> write(wheels, ada)).isInstanceOf(LockUnavailableException.class);
        List<LockEvent> denials =
                admin.history(wheels, 100).stream()
                        .filter(e -> e.type() == LockEventType.DENIED)
                        .toList();
        assertThat(denials)
                .extracting(LockEvent::userLogin, LockEvent::mode, LockEvent::repeats)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("sara", "WRITE", 49),
                        org.assertj.core.groups.Tuple.tuple("sara", "READ", 0),
                        org.assertj.core.groups.Tuple.tuple("ada", "WRITE", 0));

        store.execute(
                "update lock_event set occurred_at = occurred_at - make_interval(secs => ?)"
                        + " where resource_key = ? and event_type = 'DENIED'",
                LockStatements.DENIAL_WINDOW_SECONDS + 1,
                wheels.toString());
        assertThatThrownBy(() -> write(wheels, sara)).isInstanceOf(LockUnavailableException.class);
        assertThat(
                        admin.history(wheels, 100).stream()
                                .filter(e -> e.type() == LockEventType.DENIED)
                                .filter(e -> e.userLogin().equals("sara"))
                                .filter(e -> e.mode().equals("WRITE"))
                                .map(LockEvent::repeats))
                .as("the window passed: a row of its own")
                .containsExactly(0, 49);
    }

    @Test
    void severalKeysAreGrantedAllOrNoneAndARefusalIsAuditedWithoutAToken() {
        write(wheels, omar);

        assertThatThrownBy(
                        () ->
                                store.inTransaction(
                                        () ->
                                                locks.acquireAll(
                                                        List.of(variables, wheels, frame),
                                                        LockMode.WRITE,
                                                        sara,
                                                        null)))
                .isInstanceOfSatisfying(
                        LockUnavailableException.class, e -> assertThat(e.key()).isEqualTo(wheels));
        assertThat(locks.locksOf(sara.ownerId())).as("none of the three").isEmpty();

        LockEvent denied = admin.history(wheels, 1).get(0);
        assertThat(denied.type()).isEqualTo(LockEventType.DENIED);
        assertThat(denied.userLogin()).isEqualTo("sara");
        assertThat(denied.fencingToken()).as("a refusal was never granted a token").isNull();

        store.inTransaction(() -> locks.releaseAll(omar.ownerId()));
        assertThat(
                        store.inTransaction(
                                () ->
                                        locks.acquireAll(
                                                List.of(wheels, frame),
                                                LockMode.WRITE,
                                                sara,
                                                null)))
                .extracting(Lock::key)
                .containsExactly(frame, wheels);
    }

    // ---- re-acquire, tabs and releases ----

    @Test
    void reacquiringMovesTheLockToTheNewTabKeepsItsTokenAndTheOldTabCannotReleaseIt() {
        Lock first = acquire(whole, LockMode.WRITE, sara, "tab-1");
        Lock again = acquire(whole, LockMode.WRITE, sara, "tab-2");

        assertThat(again.fencingToken()).isEqualTo(first.fencingToken());
        assertThat(again.view()).isEqualTo("tab-2");
        assertThat(store.inTransaction(() -> locks.release(whole, sara.ownerId(), "tab-1")))
                .as("Done in the stale tab")
                .isFalse();
        assertThat(store.inTransaction(() -> locks.releaseView(sara.ownerId(), "tab-1"))).isEmpty();
        assertThat(locks.holder(whole)).map(Lock::view).contains("tab-2");

        assertThat(store.inTransaction(() -> locks.release(whole, sara.ownerId(), "tab-2")))
                .isTrue();
        assertThat(store.inTransaction(() -> locks.release(whole, sara.ownerId(), "tab-2")))
                .as("idempotent")
                .isFalse();
        assertThat(history(whole))
                .containsExactly(
                        LockEventType.ACQUIRED, LockEventType.REACQUIRED, LockEventType.RELEASED);
    }

    @Test
    void everyWayALockEndsIsAuditedWithItsCause() {
        write(whole, sara);
        store.inTransaction(() -> locks.release(whole, sara.ownerId(), null));
        acquire(variables, LockMode.WRITE, sara, "tab");
        store.inTransaction(() -> locks.releaseView(sara.ownerId(), "tab"));
        write(frame, sara);
        assertThat(store.inTransaction(() -> locks.releaseAll(sara.ownerId())))
                .containsExactly(frame);
        assertThat(store.inTransaction(() -> locks.releaseAll(sara.ownerId())))
                .as("safe to call twice")
                .isEmpty();
        write(wheels, sara);
        lapse(wheels);
        store.asDeclared("sweepExpired", locks::sweepExpired);
        write(whole, omar);
        store.inTransaction(() -> admin.forceRelease(whole, "ada", "Omar is on holiday"));

        assertThat(history(whole))
                .containsExactly(
                        LockEventType.ACQUIRED,
                        LockEventType.RELEASED,
                        LockEventType.ACQUIRED,
                        LockEventType.FORCE_RELEASED);
        assertThat(history(variables))
                .containsExactly(LockEventType.ACQUIRED, LockEventType.VIEW_CLOSED);
        assertThat(history(frame))
                .containsExactly(LockEventType.ACQUIRED, LockEventType.SESSION_ENDED);
        assertThat(history(wheels)).containsExactly(LockEventType.ACQUIRED, LockEventType.EXPIRED);
        LockEvent forced = admin.history(whole, 1).get(0);
        assertThat(forced.actor()).isEqualTo("ada");
        assertThat(forced.reason()).isEqualTo("Omar is on holiday");
    }

    @Test
    void aListFindsTheLocksInsideItsAggregatesAndAHolderLearnsHowTheirLockEnded() {
        LockKey elsewhere = LockKey.configurator(NEXT_AGGREGATE.incrementAndGet());
        Lock omars = write(frame, omar);
        write(variables, sara);
        write(elsewhere, ada);
        assertThat(locks.locksIn(whole))
                .extracting(Lock::key)
                .containsExactlyInAnyOrder(frame, variables);
        assertThat(locks.locksIn(List.of(whole)))
                .extracting(Lock::key)
                .containsExactlyInAnyOrder(frame, variables);
        assertThat(locks.locksIn(List.of(whole, elsewhere))).hasSize(3);
        assertThat(locks.locksIn(List.of())).as("no aggregates, no locks (and no query)").isEmpty();

        assertThat(locks.lost(omars)).as("still held").isEmpty();
        store.inTransaction(() -> admin.forceRelease(frame, "ada", "month end"));
        assertThat(locks.lost(omars))
                .hasValueSatisfying(
                        lost -> {
                            assertThat(lost.ending()).isEqualTo(LockEventType.FORCE_RELEASED);
                            assertThat(lost.actor()).isEqualTo("ada");
                            assertThat(lost.reason()).isEqualTo("month end");
                        });
    }

    @Test
    void aForceReleaseNeedsAReasonAndTheHolderIsToldWhoAndWhy() {
        Lock first = write(whole, omar);
        assertThatThrownBy(() -> store.inTransaction(() -> admin.forceRelease(whole, "ada", " ")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(
                        () ->
                                store.inTransaction(
                                        () -> admin.forceRelease(whole, "ada", "x".repeat(501))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 500 characters");
        assertThat(locks.holder(whole)).isPresent();
        assertThat(admin.summary().oldestSince())
                .as("the oldest lock held is at least as old as Omar's")
                .isNotNull()
                .isBeforeOrEqualTo(first.acquiredAt());
        assertThat(store.inTransaction(() -> admin.forceRelease(whole, "ada", "y".repeat(500))))
                .as("500 characters is a reason, not too long")
                .extracting(Lock::userLogin)
                .containsExactly("omar");
        Lock omars = write(whole, omar);

        assertThat(
                        store.inTransaction(
                                () -> admin.forceRelease(whole, "ada", "stuck since Friday")))
                .extracting(Lock::userLogin)
                .containsExactly("omar");
        write(whole, sara);
        assertThatThrownBy(() -> verify(omars))
                .isInstanceOf(LockNotHeldException.class)
                .hasMessageContaining("ada released your lock: stuck since Friday (" + whole + ")")
                .hasMessageContaining("Sara has been editing it since");
    }

    // ---- take-over: from the holder to the taker, with nobody in between ----

    @Test
    void aTakeOverPassesTheLockWithNoGapAThirdAcquirerCouldUseAndFencesTheFormerHolder()
            throws Exception {
        Lock saras = write(whole, sara);
        // The third acquirer arrives after the holder's row is gone and before the taker's grant.
        var omars = new java.util.concurrent.atomic.AtomicReference<CompletableFuture<Lock>>();
        store.beforeNext(
                LockStatements.SERIALIZE_AGGREGATE
                        + ";\n"
                        + LockStatements.CLEAN_UP_AGGREGATE
                        + ";\n"
                        + LockStatements.grantAll(1),
                () -> {
                    omars.set(CompletableFuture.supplyAsync(() -> write(whole, omar), ASYNC));
                    await().atMost(Duration.ofSeconds(20))
                            .pollInterval(Duration.ofMillis(20))
                            .until(
                                    () ->
                                            store.number(
                                                            "select count(*) from pg_locks where"
                                                                    + " locktype = 'advisory' and not"
                                                                    + " granted")
                                                    > 0);
                });
        Lock adas =
                store.inTransaction(
                        () -> locks.takeOver(whole, ada, "ada-tab", "ada", "Sara is away"));
        assertThat(adas.userLogin()).isEqualTo("ada");
        assertThat(adas.fencingToken()).isNotEqualTo(saras.fencingToken());
        assertThatThrownBy(() -> omars.get().get(30, TimeUnit.SECONDS))
                .as("the third acquirer waited, then found Ada's lock")
                .hasCauseInstanceOf(LockUnavailableException.class)
                .hasMessageContaining("locked by Ada");
        assertThat(history(whole))
                .containsExactly(
                        LockEventType.ACQUIRED,
                        LockEventType.TAKEN_OVER,
                        LockEventType.ACQUIRED,
                        LockEventType.DENIED);
        LockEvent taken =
                admin.history(whole, 10).stream()
                        .filter(e -> e.type() == LockEventType.TAKEN_OVER)
                        .findFirst()
                        .orElseThrow();
        assertThat(taken.fencingToken()).isEqualTo(saras.fencingToken());
        assertThat(taken.actor()).isEqualTo("ada");
        assertThat(taken.reason()).isEqualTo("Sara is away");
        assertThatThrownBy(() -> verify(saras))
                .as("Sara's save is refused, and says who took it and why")
                .isInstanceOf(LockNotHeldException.class)
                .hasMessageContaining("ada took over your lock: Sara is away (" + whole + ")")
                .hasMessageContaining("Ada has been editing it since");
        assertThat(verify(adas).userLogin()).isEqualTo("ada");
    }

    @Test
    void aTakeOverNeedsAReasonAndChangesNothingWhenOtherLocksStandInTheWay() {
        write(frame, sara);
        write(wheels, omar);
        assertThatThrownBy(
                        () ->
                                store.inTransaction(
                                        () -> locks.takeOver(frame, ada, null, "ada", " ")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(
                        () ->
                                store.inTransaction(
                                        () ->
                                                locks.takeOver(
                                                        whole, ada, null, "ada", "whole thing")))
                .as("the whole configurator while others edit its parts")
                .isInstanceOf(LockUnavailableException.class);
        assertThat(locks.holder(frame)).map(Lock::userLogin).contains("sara");
        assertThat(locks.holder(wheels)).map(Lock::userLogin).contains("omar");
        assertThat(locks.holder(whole)).isEmpty();
        assertThat(history(frame)).containsExactly(LockEventType.ACQUIRED);

        assertThat(
                        store.inTransaction(
                                        () -> locks.takeOver(frame, ada, null, "ada", "deadline"))
                                .userLogin())
                .isEqualTo("ada");
        assertThat(locks.holder(wheels)).map(Lock::userLogin).contains("omar");
        store.inTransaction(() -> locks.release(frame, sara.ownerId(), null));
        assertThat(
                        store.inTransaction(
                                        () ->
                                                locks.takeOver(
                                                        wheels, sara, null, "sara", "mine now"))
                                .userLogin())
                .as("a lock released meanwhile is simply granted; a free key is granted too")
                .isEqualTo("sara");
    }

    // ---- hand-over: asked by one person, answered by the holder, passed with nobody in between
    // ----

    private final JdbcHandovers handovers = store.handovers(locks);

    private HandoverRequest ask(LockKey key, LockOwner asker, String note) {
        return store.inTransaction(() -> handovers.ask(key, asker, asker.login() + "-tab", note));
    }

    private HandoverRequest answer(HandoverRequest r, LockOwner holder, boolean handOver) {
        return store.inTransaction(
                () -> handovers.answer(r.id(), holder.ownerId(), handOver, "reply"));
    }

    /** The grant statement of one key, as a take-over or a hand-over runs it. */
    private static final String GRANT_ONE =
            LockStatements.SERIALIZE_AGGREGATE
                    + ";\n"
                    + LockStatements.CLEAN_UP_AGGREGATE
                    + ";\n"
                    + LockStatements.grantAll(1);

    private void awaitSomeoneWaitingForTheAggregate() {
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(20))
                .until(
                        () ->
                                store.number(
                                                "select count(*) from pg_locks where locktype ="
                                                        + " 'advisory' and not granted")
                                        > 0);
    }

    @Test
    void theStoresHandOverAnswersTheReceiversNewLock() {
        Lock saras = write(whole, sara);
        Lock omars =
                store.inTransaction(
                        () ->
                                locks.handOver(
                                        whole,
                                        sara.ownerId(),
                                        saras.fencingToken(),
                                        omar,
                                        "omar-tab",
                                        "Quick price fix"));
        assertThat(omars.key()).isEqualTo(whole);
        assertThat(omars.ownerId()).isEqualTo(omar.ownerId());
        assertThat(omars.view()).isEqualTo("omar-tab");
        assertThat(omars.fencingToken()).isGreaterThan(saras.fencingToken());
        assertThat(locks.holder(whole)).contains(omars);
    }

    @Test
    void aHandOverPassesTheLockWithNoGapAThirdAcquirerCouldUseAndFencesTheFormerHolder()
            throws Exception {
        Lock saras = write(whole, sara);
        HandoverRequest asked = ask(whole, omar, "Quick price fix");
        assertThat(asked.state()).isEqualTo(HandoverRequest.State.OPEN);
        assertThat(handovers.openTo(saras.fencingToken()))
                .extracting(HandoverRequest::id)
                .containsExactly(asked.id());
        // Ada arrives after Sara's row is gone and before Omar's grant.
        var adas = new java.util.concurrent.atomic.AtomicReference<CompletableFuture<Lock>>();
        store.beforeNext(
                GRANT_ONE,
                () -> {
                    adas.set(CompletableFuture.supplyAsync(() -> write(whole, ada), ASYNC));
                    awaitSomeoneWaitingForTheAggregate();
                });
        HandoverRequest answered = answer(asked, sara, true);
        assertThat(answered.state()).isEqualTo(HandoverRequest.State.HANDED_OVER);
        Lock omars = locks.holder(whole).orElseThrow();
        assertThat(omars.userLogin()).isEqualTo("omar");
        assertThat(omars.view()).as("granted to the tab that asked").isEqualTo("omar-tab");
        assertThatThrownBy(() -> adas.get().get(30, TimeUnit.SECONDS))
                .as("the third acquirer waited, then found Omar's lock")
                .hasCauseInstanceOf(LockUnavailableException.class)
                .hasMessageContaining("locked by Omar");
        assertThat(history(whole))
                .containsExactly(
                        LockEventType.ACQUIRED,
                        LockEventType.HANDOVER_ASKED,
                        LockEventType.HANDED_OVER,
                        LockEventType.ACQUIRED,
                        LockEventType.DENIED);
        LockEvent handed =
                admin.history(whole, 10).stream()
                        .filter(e -> e.type() == LockEventType.HANDED_OVER)
                        .findFirst()
                        .orElseThrow();
        assertThat(handed.fencingToken()).isEqualTo(saras.fencingToken());
        assertThat(handed.actor()).isEqualTo("omar");
        assertThat(handed.reason()).isEqualTo("Quick price fix");
        assertThatThrownBy(() -> verify(saras))
                .as("Sara's save is refused, and says to whom she handed it")
                .isInstanceOf(LockNotHeldException.class)
                .hasMessageContaining("You handed your lock over to omar (" + whole + ")")
                .hasMessageContaining("Omar has been editing it since");
        assertThat(verify(omars).userLogin()).isEqualTo("omar");
        assertThatThrownBy(() -> answer(asked, sara, true))
                .as("answered once")
                .isInstanceOfSatisfying(
                        HandoverRefusedException.class,
                        e ->
                                assertThat(e.reason())
                                        .isEqualTo(HandoverRefusedException.Reason.NOT_OPEN));
    }

    @Test
    void theHolderReleasingWhileTheRequestIsAnsweredLeavesTheRecordFreeAndEndsTheRequest() {
        write(whole, sara);
        HandoverRequest asked = ask(whole, omar, null);
        // Sara's Done reaches the database after the answer began and before it passes the lock.
        store.beforeNext(
                LockStatements.HAND_FROM,
                () ->
                        CompletableFuture.runAsync(
                                        () ->
                                                store.inTransaction(
                                                        () ->
                                                                locks.release(
                                                                        whole,
                                                                        sara.ownerId(),
                                                                        null)),
                                        ASYNC)
                                .join());
        assertThatThrownBy(() -> answer(asked, sara, true))
                .isInstanceOfSatisfying(
                        HandoverRefusedException.class,
                        e -> {
                            assertThat(e.reason())
                                    .isEqualTo(HandoverRefusedException.Reason.LOCK_ENDED);
                            assertThat(e.getMessage())
                                    .startsWith("Not handed over: Your lock on " + whole)
                                    .contains("nobody holds it now");
                        });
        assertThat(locks.holder(whole)).as("nobody was granted anything").isEmpty();
        assertThat(handovers.find(asked.id(), omar.ownerId()).orElseThrow().state())
                .isEqualTo(HandoverRequest.State.ENDED);
        assertThat(history(whole))
                .containsExactly(
                        LockEventType.ACQUIRED,
                        LockEventType.HANDOVER_ASKED,
                        LockEventType.RELEASED);
    }

    @Test
    void twoAnswersAtOnceHandTheLockToOneAskerAndEndTheOtherRequest() throws Exception {
        Lock saras = write(whole, sara);
        HandoverRequest omarsRequest = ask(whole, omar, "first");
        HandoverRequest adasRequest = ask(whole, ada, "second");
        assertThat(handovers.openTo(saras.fencingToken())).hasSize(2);
        // Sara's second answer (from another window) waits behind the first one's hand-over.
        var second = new java.util.concurrent.atomic.AtomicReference<CompletableFuture<?>>();
        store.beforeNext(
                LockStatements.HAND_FROM,
                () -> {
                    second.set(
                            CompletableFuture.supplyAsync(
                                    () -> answer(adasRequest, sara, true), ASYNC));
                    awaitSomeoneWaitingForTheAggregate();
                });
        answer(omarsRequest, sara, true);
        assertThatThrownBy(() -> second.get().get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(HandoverRefusedException.class)
                .hasMessageContaining("You handed your lock over to omar");
        assertThat(locks.locksIn(whole)).extracting(Lock::userLogin).containsExactly("omar");
        assertThat(handovers.find(adasRequest.id(), ada.ownerId()).orElseThrow().state())
                .isEqualTo(HandoverRequest.State.ENDED);
        assertThat(history(whole))
                .containsExactly(
                        LockEventType.ACQUIRED,
                        LockEventType.HANDOVER_ASKED,
                        LockEventType.HANDOVER_ASKED,
                        LockEventType.HANDED_OVER,
                        LockEventType.ACQUIRED);
    }

    @Test
    void aRequestIsDeclinedWithAReplyTimesOutOrIsWithdrawnAndNoneOfThatChangesTheLock() {
        Lock saras = write(frame, sara);
        HandoverRequest declined = ask(frame, omar, "please");
        assertThat(answer(declined, sara, false))
                .satisfies(
                        r -> {
                            assertThat(r.state()).isEqualTo(HandoverRequest.State.DECLINED);
                            assertThat(r.reply()).isEqualTo("reply");
                            assertThat(r.askerSentence()).isEqualTo("Sara keeps editing: “reply”");
                        });
        HandoverRequest late = ask(frame, omar, null);
        store.execute(
                "update handover_request set expires_at = statement_timestamp() where id = ?",
                late.id());
        assertThat(handovers.expire()).isPositive();
        assertThat(handovers.find(late.id(), omar.ownerId()).orElseThrow().state())
                .isEqualTo(HandoverRequest.State.TIMED_OUT);
        assertThatThrownBy(() -> answer(late, sara, true))
                .isInstanceOf(HandoverRefusedException.class)
                .hasMessageStartingWith(
                        "This request is no longer open: It timed out before your answer");
        HandoverRequest withdrawn = ask(frame, omar, null);
        assertThatThrownBy(
                        () ->
                                store.inTransaction(
                                        () -> handovers.withdraw(withdrawn.id(), ada.ownerId())))
                .as("only the asker withdraws, and others do not even see it")
                .isInstanceOfSatisfying(
                        HandoverRefusedException.class,
                        e ->
                                assertThat(e.reason())
                                        .isEqualTo(HandoverRefusedException.Reason.UNKNOWN));
        assertThatThrownBy(() -> answer(withdrawn, omar, true))
                .as("only the holder answers")
                .isInstanceOfSatisfying(
                        HandoverRefusedException.class,
                        e ->
                                assertThat(e.reason())
                                        .isEqualTo(HandoverRefusedException.Reason.NOT_YOURS));
        store.inTransaction(() -> handovers.withdraw(withdrawn.id(), omar.ownerId()));
        assertThat(verify(saras).userLogin()).as("Sara still edits").isEqualTo("sara");
        assertThat(history(frame))
                .containsExactly(
                        LockEventType.ACQUIRED,
                        LockEventType.HANDOVER_ASKED,
                        LockEventType.HANDOVER_DECLINED,
                        LockEventType.HANDOVER_ASKED,
                        LockEventType.HANDOVER_TIMED_OUT,
                        LockEventType.HANDOVER_ASKED,
                        LockEventType.HANDOVER_WITHDRAWN);
        assertThatThrownBy(() -> ask(frame, omar, null))
                .as("three requests for one record in ten minutes are enough")
                .isInstanceOfSatisfying(
                        HandoverRefusedException.class,
                        e ->
                                assertThat(e.reason())
                                        .isEqualTo(HandoverRefusedException.Reason.TOO_MANY));
        assertThat(history(frame)).hasSize(7);
    }

    @Test
    void askingNeedsSomeoneElsesWriteLockOneOpenRequestAndAPlainBoundedNote() {
        assertThatThrownBy(() -> ask(wheels, omar, null))
                .isInstanceOfSatisfying(
                        HandoverRefusedException.class,
                        e -> {
                            assertThat(e.reason())
                                    .isEqualTo(HandoverRefusedException.Reason.NOBODY_HOLDS);
                            assertThat(e.getMessage())
                                    .isEqualTo(
                                            "Nobody is editing "
                                                    + wheels
                                                    + " now: open it for editing instead.");
                        });
        write(wheels, sara);
        assertThatThrownBy(() -> ask(wheels, sara, null))
                .isInstanceOfSatisfying(
                        HandoverRefusedException.class,
                        e ->
                                assertThat(e.reason())
                                        .isEqualTo(HandoverRefusedException.Reason.YOURS));
        assertThatThrownBy(() -> ask(wheels, omar, "x".repeat(501)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The note is too long: at most 500 characters.");
        HandoverRequest waiting = ask(wheels, ada, null);
        assertThatThrownBy(
                        () ->
                                store.inTransaction(
                                        () ->
                                                handovers.answer(
                                                        waiting.id(),
                                                        sara.ownerId(),
                                                        false,
                                                        "tab\u0000")))
                .as("a reply is plain text too")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("The reply contains a control character (U+0000)");
        store.inTransaction(() -> handovers.withdraw(waiting.id(), ada.ownerId()));
        assertThatThrownBy(() -> ask(wheels, omar, "bell\u0007"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("The note contains a control character (U+0007)");
        assertThat(history(wheels))
                .containsExactly(
                        LockEventType.ACQUIRED,
                        LockEventType.HANDOVER_ASKED,
                        LockEventType.HANDOVER_WITHDRAWN);
        ask(wheels, omar, "  spaces go  ");
        assertThatThrownBy(() -> ask(wheels, omar, null))
                .isInstanceOfSatisfying(
                        HandoverRefusedException.class,
                        e ->
                                assertThat(e.reason())
                                        .isEqualTo(HandoverRefusedException.Reason.ALREADY_ASKED));
        assertThat(handovers.latest(omar.ownerId(), wheels).orElseThrow().note())
                .isEqualTo("spaces go");
        store.inTransaction(() -> locks.release(wheels, sara.ownerId(), null));
        handovers.expire();
        assertThat(handovers.latest(omar.ownerId(), wheels).orElseThrow().state())
                .as("Sara finished: the request ends with her lock")
                .isEqualTo(HandoverRequest.State.ENDED);
    }

    @Test
    void aClosedRequestSaysWhatBecameOfItAndWhenAndOnlyOpenOnesAreListedOrKeptFromThePurge() {
        write(frame, sara);
        write(wheels, sara);
        HandoverRequest declined = ask(frame, omar, null);
        answer(declined, sara, false);
        Instant answeredAt =
                handovers.find(declined.id(), sara.ownerId()).orElseThrow().answeredAt();
        assertThat(answeredAt).as("a closed request knows when it closed").isNotNull();
        assertThatThrownBy(() -> answer(declined, sara, true))
                .as("answering twice names the first answer and its time, as the screen shows it")
                .isInstanceOfSatisfying(
                        HandoverRefusedException.class,
                        e -> {
                            assertThat(e.reason())
                                    .isEqualTo(HandoverRefusedException.Reason.NOT_OPEN);
                            assertThat(e.getMessage())
                                    .isEqualTo(
                                            "This request is no longer open: You kept editing. ("
                                                    + java.time.format.DateTimeFormatter.ofPattern(
                                                                    "HH:mm:ss")
                                                            .withZone(
                                                                    java.time.ZoneId
                                                                            .systemDefault())
                                                            .format(answeredAt)
                                                    + ")");
                        });
        HandoverRequest waiting = ask(wheels, omar, "when you can");
        HandoverRequest withdrawn =
                store.inTransaction(() -> handovers.withdraw(waiting.id(), omar.ownerId()));
        assertThat(withdrawn)
                .as("withdrawing answers with the request as it now stands")
                .satisfies(
                        r -> {
                            assertThat(r.id()).isEqualTo(waiting.id());
                            assertThat(r.state()).isEqualTo(HandoverRequest.State.WITHDRAWN);
                            assertThat(r.answeredAt()).isNotNull();
                            assertThat(r.askerSentence())
                                    .isEqualTo("You withdrew your request to Sara.");
                        });
        HandoverRequest open = ask(frame, ada, null);
        assertThat(handovers.openFor(List.of(frame, wheels)))
                .as("the records' pages list the open requests only")
                .extracting(HandoverRequest::id)
                .containsExactly(open.id());
        assertThat(handovers.openFor(List.of(whole))).isEmpty();
        assertThat(handovers.openFor(List.of())).isEmpty();
        store.execute(
                "update handover_request set asked_at = asked_at - interval '400 days'"
                        + " where id in (?, ?, ?)",
                declined.id(),
                waiting.id(),
                open.id());
        assertThat(handovers.purge(365))
                .as("the purge deletes the two closed requests past their days and says so")
                .isEqualTo(2);
        assertThat(handovers.find(declined.id(), sara.ownerId())).isEmpty();
        assertThat(handovers.find(waiting.id(), omar.ownerId())).isEmpty();
        assertThat(handovers.find(open.id(), ada.ownerId()))
                .as("an open request stays, however old")
                .isPresent();
        assertThat(handovers.purge(365)).as("nothing left to purge").isZero();
    }

    @Test
    void aRecordSaysHowItsLastLockEndedWhateverHappenedSince() {
        assertThat(locks.lastEnding(frame)).as("never locked: nothing to say").isEmpty();
        write(frame, sara);
        assertThat(locks.lastEnding(frame)).as("held, never ended").isEmpty();
        store.inTransaction(() -> locks.release(frame, sara.ownerId(), null));
        assertThat(locks.lastEnding(frame))
                .hasValueSatisfying(
                        e -> {
                            assertThat(e.type()).isEqualTo(LockEventType.RELEASED);
                            assertThat(e.userLogin()).isEqualTo("sara");
                        });
        write(frame, omar);
        assertThatThrownBy(() -> write(frame, sara)).isInstanceOf(LockUnavailableException.class);
        assertThat(locks.lastEnding(frame))
                .as("a grant and a refusal since do not hide how the last lock ended")
                .map(LockEvent::type)
                .hasValue(LockEventType.RELEASED);
        store.inTransaction(() -> admin.forceRelease(frame, "ada", "month end"));
        assertThat(locks.lastEnding(frame))
                .hasValueSatisfying(
                        e -> {
                            assertThat(e.type()).isEqualTo(LockEventType.FORCE_RELEASED);
                            assertThat(e.actor()).isEqualTo("ada");
                            assertThat(e.reason()).isEqualTo("month end");
                        });
        assertThat(locks.lastEnding(wheels)).as("only the record's own lines count").isEmpty();
    }

    @Test
    void aSelectionIsForceReleasedKeyByKeyAfterOneCheckOfTheReason() {
        write(frame, sara);
        acquire(wheels, LockMode.READ, omar, null);
        acquire(wheels, LockMode.READ, sara, null);
        assertThatThrownBy(() -> admin.forceRelease(List.of(frame, wheels), "ada", " "))
                .as("a blank reason releases nothing of the selection")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("A reason is required to force-release 2 locks.");
        assertThat(locks.locksIn(whole)).hasSize(3);

        assertThat(admin.forceRelease(List.of(frame, wheels, variables), "ada", " month end "))
                .as("every lock on each selected key, whoever holds it; a free key ends nothing")
                .extracting(l -> l.key() + " " + l.userLogin())
                .containsExactlyInAnyOrder(frame + " sara", wheels + " omar", wheels + " sara");
        assertThat(locks.locksIn(whole)).isEmpty();
        assertThat(locks.lastEnding(wheels))
                .hasValueSatisfying(
                        e -> {
                            assertThat(e.type()).isEqualTo(LockEventType.FORCE_RELEASED);
                            assertThat(e.reason()).isEqualTo("month end");
                        });
    }

    // ---- leases, judged by the database's clock ----

    @Test
    void aHeartbeatExtendsTheLeasesOfOneTabOrOfTheWholeSession() {
        acquire(frame, LockMode.WRITE, sara, "tab-1");
        acquire(wheels, LockMode.WRITE, sara, "tab-2");
        store.execute(
                "update app_lock set expires_at = statement_timestamp() + interval '5 seconds'"
                        + " where owner_id = ?",
                sara.ownerId());

        assertThat(store.inTransaction(() -> locks.renew(sara.ownerId(), "tab-1"))).isEqualTo(1);
        assertThat(secondsLeft(frame)).isGreaterThan(50);
        assertThat(secondsLeft(wheels)).isLessThan(10);
        assertThat(store.inTransaction(() -> locks.renew(sara.ownerId(), null))).isEqualTo(2);
        assertThat(secondsLeft(wheels)).isGreaterThan(50);
    }

    private double secondsLeft(LockKey key) {
        return store.number(
                        "select extract(epoch from expires_at - statement_timestamp()) * 1000 from app_lock"
                                + " where resource_key = ?",
                        key.toString())
                / 1000.0;
    }

    @Test
    void aLapsedLockBlocksNobodyIsSavedByNobodyAndIsAuditedAsExpiredOnce() {
        Lock saras = write(whole, sara);
        lapse(whole);

        assertThat(locks.holder(whole)).as("a lapsed lock holds nothing").isEmpty();
        assertThatThrownBy(() -> verify(saras)).isInstanceOf(LockNotHeldException.class);
        Lock omars = write(whole, omar);
        assertThat(omars.fencingToken()).isGreaterThan(saras.fencingToken());
        assertThat(history(whole))
                .containsExactly(
                        LockEventType.ACQUIRED, LockEventType.EXPIRED, LockEventType.ACQUIRED);
        assertThatThrownBy(() -> verify(saras))
                .hasMessageContaining("expired because no heartbeat renewed it")
                .hasMessageContaining("Omar has been editing it");
        assertThat(store.inTransaction(() -> locks.renew(sara.ownerId(), null)))
                .as("nothing left to revive")
                .isZero();
    }

    @Test
    void aHeartbeatRevivesALapsedLockThatNobodyTookOrSwept() {
        Lock saras = write(whole, sara);
        lapse(whole);

        assertThat(store.inTransaction(() -> locks.renew(sara.ownerId(), null))).isEqualTo(1);
        assertThat(verify(saras).fencingToken()).isEqualTo(saras.fencingToken());
        assertThatThrownBy(() -> write(whole, omar)).isInstanceOf(LockUnavailableException.class);
        assertThat(history(whole))
                .containsExactly(
                        LockEventType.ACQUIRED,
                        LockEventType.RENEWED_AFTER_LAPSE,
                        LockEventType.DENIED);
    }

    // ---- the node's heartbeats, renewed in bulk ----

    @Test
    void oneRoundRenewsEveryBeatingTabInOneStatementEachLeaseFromItsOwnBeat() {
        acquire(frame, LockMode.WRITE, sara, "tab-1");
        acquire(wheels, LockMode.WRITE, sara, "tab-2");
        acquire(variables, LockMode.WRITE, omar, "tab-9");
        store.execute(
                "update app_lock set expires_at = statement_timestamp() + interval '5 seconds'"
                        + " where aggregate_key = ?",
                whole.toString());
        List<String> sent = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        LockStore counting =
                store.withStatements(
                        sql -> {
                            sent.add(sql);
                            return sql;
                        });
        JdbcLockManager node = counting.manager(Duration.ofSeconds(60));

        int[] renewed =
                node.renew(
                        List.of(
                                Beat.now(sara.ownerId(), "tab-1"),
                                new Beat(omar.ownerId(), null, Duration.ofSeconds(10)),
                                Beat.now(ada.ownerId(), "tab-1"),
                                Beat.now(omar.ownerId(), "tab-1")));

        assertThat(renewed).as("locks renewed per beat").containsExactly(1, 1, 0, 0);
        assertThat(sent).as("statements sent for four beats").hasSize(1);
        assertThat(secondsLeft(frame)).isBetween(58.0, 60.5);
        assertThat(secondsLeft(variables))
                .as("a lease from its beat, ten seconds ago")
                .isBetween(48.0, 50.5);
        assertThat(secondsLeft(wheels)).as("tab 2 did not beat").isLessThan(6);
        assertThat(node.renew(List.of())).isEmpty();
        assertThat(sent).as("no beats, no statement").hasSize(1);
    }

    @Test
    void aRoundNeverShortensALeaseNorRenewsPastTheMaximumAge() {
        acquire(frame, LockMode.WRITE, sara, "tab-1");
        assertThat(locks.renew(List.of(new Beat(sara.ownerId(), "tab-1", Duration.ofSeconds(40)))))
                .containsExactly(1);
        assertThat(secondsLeft(frame))
                .as("the grant's lease outlasts an older beat's")
                .isGreaterThan(55);

        JdbcLockManager aged = store.manager(Duration.ofSeconds(60));
        aged.maxAge = Duration.ofSeconds(30);
        assertThat(aged.renew(List.of(Beat.now(sara.ownerId(), null)))).containsExactly(1);
        assertThat(secondsLeft(frame)).as("capped at the maximum age").isLessThan(31);
    }

    @Test
    void aTabThatReleasedBetweenItsBeatAndTheRoundIsNotRevived() {
        NodeHeartbeats node = store.heartbeats(locks, Duration.ofSeconds(60));
        Lock saras = acquire(frame, LockMode.WRITE, sara, "tab-1");
        node.beat(sara.ownerId(), "tab-1");
        node.beat(sara.ownerId(), "tab-1"); // its latest beat counts once
        store.inTransaction(() -> locks.releaseView(sara.ownerId(), "tab-1"));

        List<NodeHeartbeats.Renewal> round = node.renewNoted();

        assertThat(round).singleElement().extracting(NodeHeartbeats.Renewal::renewed).isEqualTo(0);
        assertThat(locks.holder(frame)).isEmpty();
        assertThat(history(frame))
                .containsExactly(LockEventType.ACQUIRED, LockEventType.VIEW_CLOSED);
        assertThatThrownBy(() -> verify(saras)).isInstanceOf(LockNotHeldException.class);
        assertThat(node.renewNoted()).as("a beat is renewed in one round only").isEmpty();
    }

    /**
     * Forced: the round has found the tab's lock and waits for its row while the tab's release
     * deletes it; the round then renews nothing and revives nothing.
     */
    @Test
    void aReleaseThatCommitsWhileTheRoundWaitsForTheRowIsNotUndone() throws Exception {
        NodeHeartbeats node = store.heartbeats(locks, Duration.ofSeconds(60));
        acquire(frame, LockMode.WRITE, sara, "tab-1");
        node.beat(sara.ownerId(), "tab-1");
        try (Connection release = store.separateConnection();
                Statement s = release.createStatement()) {
            release.setAutoCommit(false);
            s.execute("select 1 from app_lock where resource_key = '" + frame + "' for update");
            var round = CompletableFuture.supplyAsync(node::renewNoted, ASYNC);
            awaitSomeoneWaitingForARowLock();
            s.execute("delete from app_lock where resource_key = '" + frame + "'");
            release.commit();
            assertThat(round.get(30, TimeUnit.SECONDS))
                    .singleElement()
                    .extracting(NodeHeartbeats.Renewal::renewed)
                    .isEqualTo(0);
        }
        assertThat(locks.holder(frame)).isEmpty();
        assertThat(history(frame)).containsExactly(LockEventType.ACQUIRED);
    }

    @Test
    void aNodeThatStopsRenewsTheBeatsItAnsweredBeforeItGoes() {
        NodeHeartbeats node = store.heartbeats(locks, Duration.ofSeconds(60));
        Lock saras = write(whole, sara);
        lapse(whole);
        node.beat(sara.ownerId(), null); // answered 204; its round had not come yet
        node.stop();
        assertThat(node.waiting()).as("beats left unrenewed").isZero();
        assertThat(verify(saras).fencingToken()).isEqualTo(saras.fencingToken());
        assertThat(history(whole))
                .containsExactly(LockEventType.ACQUIRED, LockEventType.RENEWED_AFTER_LAPSE);
    }

    @Test
    void aRoundRevivesALapsedRowOnlyWhileItIsThereAndAuditsIt() {
        NodeHeartbeats node = store.heartbeats(locks, Duration.ofSeconds(60));
        Lock saras = write(whole, sara);
        lapse(whole);
        node.beat(sara.ownerId(), null);
        assertThat(node.renewNoted())
                .singleElement()
                .extracting(NodeHeartbeats.Renewal::renewed)
                .isEqualTo(1);
        assertThat(verify(saras).fencingToken()).isEqualTo(saras.fencingToken());
        assertThat(history(whole))
                .containsExactly(LockEventType.ACQUIRED, LockEventType.RENEWED_AFTER_LAPSE);

        lapse(whole);
        node.beat(sara.ownerId(), null);
        store.inTransaction(locks::sweepExpired);
        assertThat(node.renewNoted())
                .singleElement()
                .extracting(NodeHeartbeats.Renewal::renewed)
                .isEqualTo(0);
        assertThat(locks.holder(whole)).isEmpty();
        assertThat(history(whole))
                .containsExactly(
                        LockEventType.ACQUIRED,
                        LockEventType.RENEWED_AFTER_LAPSE,
                        LockEventType.EXPIRED);
    }

    @Test
    void aBeatOlderThanTheLeaseEarnsNothing() {
        NodeHeartbeats node = store.heartbeats(locks, Duration.ofSeconds(20));
        AtomicLong nanos = new AtomicLong();
        node.clock = nanos::get;
        acquire(frame, LockMode.WRITE, sara, "tab-1");
        store.execute(
                "update app_lock set expires_at = statement_timestamp() + interval '5 seconds'"
                        + " where resource_key = ?",
                frame.toString());
        node.beat(sara.ownerId(), "tab-1");
        nanos.addAndGet(Duration.ofSeconds(20).toNanos()); // the round is held up a whole lease
        assertThat(node.renewNoted())
                .singleElement()
                .extracting(NodeHeartbeats.Renewal::renewed)
                .isEqualTo(0);
        assertThat(secondsLeft(frame)).isLessThan(6);
    }

    @Test
    void aRoundOfMoreBeatsThanOneStatementTakesTakesOneStatementPerBatchAndRenewsEachTabOnce() {
        List<String> sent = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        LockStore counting =
                store.withStatements(
                        sql -> {
                            if (sql.contains("with beat as")) {
                                sent.add(sql);
                            }
                            return sql;
                        });
        NodeHeartbeats node =
                counting.heartbeats(
                        counting.manager(Duration.ofSeconds(60)), Duration.ofSeconds(60));
        node.batchSize = 2;
        for (int i = 1; i <= 5; i++) {
            acquire(LockKey.itemFilters(g * 100 + i), LockMode.WRITE, sara, "tab-" + i);
            node.beat(sara.ownerId(), "tab-" + i);
        }
        store.execute(
                "update app_lock set expires_at = statement_timestamp() + interval '5 seconds'"
                        + " where aggregate_key = ?",
                whole.toString());

        List<NodeHeartbeats.Renewal> round = node.renewNoted();

        assertThat(round).extracting(NodeHeartbeats.Renewal::renewed).containsOnly(1);
        assertThat(round)
                .extracting(r -> r.beat().view())
                .containsExactlyInAnyOrder("tab-1", "tab-2", "tab-3", "tab-4", "tab-5");
        assertThat(sent).as("statements for five beats, two a statement").hasSize(3);
        for (int i = 1; i <= 5; i++) {
            assertThat(secondsLeft(LockKey.itemFilters(g * 100 + i))).isGreaterThan(55);
        }
    }

    @Test
    void aRoundComesEverySecondOrEveryQuarterLeaseIfThatIsShorter() {
        assertThat(store.heartbeats(locks, Duration.ofSeconds(60)).round())
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(store.heartbeats(locks, Duration.ofSeconds(4)).round())
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(store.heartbeats(locks, Duration.ofSeconds(2)).round())
                .isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void beyondItsBoundTheNodeRenewsABeatAtOnceInsteadOfNotingIt() {
        NodeHeartbeats node = store.heartbeats(locks, Duration.ofSeconds(60));
        node.maxNoted = 1;
        acquire(frame, LockMode.WRITE, sara, "tab-1");
        acquire(wheels, LockMode.WRITE, sara, "tab-2");
        store.execute(
                "update app_lock set expires_at = statement_timestamp() + interval '5 seconds'"
                        + " where aggregate_key = ?",
                whole.toString());
        node.beat(sara.ownerId(), "tab-1");
        node.beat(sara.ownerId(), "tab-2");
        assertThat(node.waiting()).isEqualTo(1);
        assertThat(secondsLeft(wheels)).as("renewed on the spot").isGreaterThan(55);
        assertThat(secondsLeft(frame)).as("waits for the round").isLessThan(6);
        assertThat(node.renewNoted()).hasSize(1);
        assertThat(secondsLeft(frame)).isGreaterThan(55);
    }

    // ---- the sweep ----

    @Test
    void theSweepCommitsEachBatchOnItsOwnAndTwoSweepsAuditEachRowOnce() throws Exception {
        JdbcLockManager small = store.manager(Duration.ofSeconds(60));
        small.sweepBatch = 10;
        LockOwner crowd = owner("Crowd");
        long firstItem = g * 100 + 1;
        for (int i = 0; i < 45; i++) {
            write(LockKey.itemFilters(firstItem + i), crowd);
        }
        store.execute(
                "update app_lock set expires_at = statement_timestamp() - interval '1 second'"
                        + " where owner_id = ?",
                crowd.ownerId());
        long mark = store.number("select coalesce(max(id), 0) from lock_event");

        var one =
                CompletableFuture.supplyAsync(
                        () -> store.asDeclared("sweepExpired", small::sweepExpired), ASYNC);
        var two =
                CompletableFuture.supplyAsync(
                        () -> store.asDeclared("sweepExpired", small::sweepExpired), ASYNC);
        List<LockKey> swept = new java.util.ArrayList<>(one.get(30, TimeUnit.SECONDS));
        swept.addAll(two.get(30, TimeUnit.SECONDS));

        assertThat(swept).hasSize(45).doesNotHaveDuplicates();
        assertThat(
                        store.number(
                                "select count(*) from lock_event where id > ? and event_type = 'EXPIRED'"
                                        + " and owner_id = ?",
                                mark,
                                crowd.ownerId()))
                .isEqualTo(45);
        assertThat(
                        store.number(
                                "select count(distinct xmin::text) from lock_event where id > ? and owner_id = ?",
                                mark,
                                crowd.ownerId()))
                .as("transactions that audited the 45 rows: one per batch of 10")
                .isGreaterThanOrEqualTo(5);
        assertThat(
                        store.number(
                                "select count(*) from app_lock where owner_id = ?",
                                crowd.ownerId()))
                .isZero();
    }

    // ---- fencing ----

    @Test
    void aVerifiedSaveHoldsOffAForceReleaseUntilItCommits() throws Exception {
        Lock saras = write(whole, sara);
        CountDownLatch verified = new CountDownLatch(1);
        CountDownLatch saveMayCommit = new CountDownLatch(1);
        var save =
                CompletableFuture.runAsync(
                        () ->
                                store.inTransaction(
                                        () -> {
                                            locks.verify(
                                                    saras.key(),
                                                    saras.ownerId(),
                                                    saras.fencingToken());
                                            verified.countDown();
                                            LockStore.unchecked(
                                                    () ->
                                                            saveMayCommit.await(
                                                                    30, TimeUnit.SECONDS));
                                        }),
                        ASYNC);
        assertThat(verified.await(30, TimeUnit.SECONDS)).isTrue();

        var force =
                CompletableFuture.supplyAsync(
                        () ->
                                store.inTransaction(
                                        () -> admin.forceRelease(whole, "ada", "needed now")),
                        ASYNC);
        awaitSomeoneWaitingForARowLock();
        assertThat(force).as("the force release waits for the save").isNotDone();

        saveMayCommit.countDown();
        save.get(30, TimeUnit.SECONDS);
        assertThat(force.get(30, TimeUnit.SECONDS))
                .extracting(Lock::userLogin)
                .containsExactly("sara");
        assertThat(history(whole))
                .containsExactly(LockEventType.ACQUIRED, LockEventType.FORCE_RELEASED);
    }

    private void awaitSomeoneWaitingForARowLock() {
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> store.number("select count(*) from pg_locks where not granted") > 0);
    }

    // ---- what the admin dashboard asks ----

    @Test
    void theDashboardPagesFiltersAndSortsInTheDatabase() {
        LockOwner zed = new LockOwner(UUID.randomUUID().toString(), "zed" + g, "Zed " + g);
        for (int i = 1; i <= 7; i++) {
            write(LockKey.itemFilters(g * 100 + i), zed);
        }
        write(variables, zed);
        store.execute(
                "update app_lock set acquired_at = statement_timestamp() - interval '2 hours'"
                        + " where resource_key = ?",
                variables.toString());

        var mine = new LockQuery("zed" + g, null, null, LockQuery.Sort.RESOURCE, false, 0, 5);
        LockPage<Lock> first = admin.find(mine);
        assertThat(first.total()).isEqualTo(8);
        assertThat(first.rows())
                .hasSize(5)
                .extracting(Lock::key)
                .isSortedAccordingTo(java.util.Comparator.comparing(LockKey::toString));
        LockPage<Lock> second =
                admin.find(
                        new LockQuery(
                                "Zed " + g, null, null, LockQuery.Sort.RESOURCE, false, 5, 5));
        assertThat(second.rows())
                .hasSize(3)
                .extracting(Lock::key)
                .doesNotContainAnyElementsOf(first.rows().stream().map(Lock::key).toList());
        assertThat(
                        admin.find(
                                        new LockQuery(
                                                "zed" + g,
                                                LockKey.Kind.CONFIGURATOR_VARIABLES,
                                                null,
                                                LockQuery.Sort.ACQUIRED,
                                                true,
                                                0,
                                                50))
                                .rows())
                .extracting(Lock::key)
                .containsExactly(variables);
        assertThat(
                        admin.find(
                                        new LockQuery(
                                                "zed" + g,
                                                null,
                                                3600,
                                                LockQuery.Sort.TOKEN,
                                                true,
                                                0,
                                                50))
                                .rows())
                .as("held for an hour or more")
                .extracting(Lock::key)
                .containsExactly(variables);
        assertThat(admin.find(new LockQuery("%_" + g, null, null, null, false, 0, 50)).total())
                .as("wildcards in a search are plain text")
                .isZero();
        assertThat(admin.summary().held()).isGreaterThanOrEqualTo(8);
    }

    @Test
    void everythingAUserHoldsIsForceReleasedAtOnceAndTheHistoryFindsIt() {
        LockOwner zed = new LockOwner(UUID.randomUUID().toString(), "zed" + g, "Zed");
        write(frame, zed);
        write(variables, zed);
        long forcedBefore = admin.summary().forcedLastHour();

        assertThat(
                        store.inTransaction(
                                () ->
                                        admin.forceReleaseAllOf(
                                                "zed" + g, "ada", "left the company")))
                .extracting(Lock::key)
                .containsExactlyInAnyOrder(frame, variables);
        assertThat(admin.summary().forcedLastHour()).isEqualTo(forcedBefore + 2);
        var forced =
                admin.history(
                        new HistoryQuery(
                                null, "zed" + g, LockEventType.FORCE_RELEASED, null, null, 0, 10));
        assertThat(forced.total()).isEqualTo(2);
        assertThat(forced.rows())
                .allSatisfy(e -> assertThat(e.reason()).isEqualTo("left the company"));
        assertThat(
                        admin.history(
                                        new HistoryQuery(
                                                frame,
                                                null,
                                                null,
                                                Instant.now().minusSeconds(60),
                                                null,
                                                0,
                                                10))
                                .rows())
                .extracting(LockEvent::type)
                .containsExactly(LockEventType.FORCE_RELEASED, LockEventType.ACQUIRED);
        assertThatThrownBy(() -> admin.forceReleaseAllOf("zed" + g, "ada", ""))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRetentionPurgeDeletesOnlyOldHistoryInBatches() {
        JdbcLockAdministration small = store.administration();
        small.purgeBatch = 2;
        for (int round = 0; round < 2; round++) { // four old lines: more than one batch of two
            write(frame, sara);
            store.inTransaction(() -> locks.release(frame, sara.ownerId(), null));
        }
        write(wheels, sara);
        store.execute(
                "update lock_event set occurred_at = occurred_at - interval '100 days'"
                        + " where resource_key = ?",
                frame.toString());

        assertThat(store.asDeclared("purgeHistory", () -> small.purgeHistory(90)))
                .isGreaterThanOrEqualTo(4);
        assertThat(history(frame)).isEmpty();
        assertThat(history(wheels)).containsExactly(LockEventType.ACQUIRED);
    }

    // ---- races found in review, each forced with a second connection ----

    /**
     * The acquisition's clean-up waits for a row lock on a lapsed row (a save's FOR SHARE) while
     * another row of the aggregate lapses; the grant that follows must still count that row as in
     * the way until it is deleted.
     */
    private Lock acquireWhileTheCleanUpWaitsAndAnotherRowLapses(
            LockKey wanted, LockOwner who, LockKey lapsesMeanwhile) throws Exception {
        Lock blocker = write(LockKey.itemFilters(g * 100 + 9), ada);
        lapse(blocker.key());
        try (Connection save = store.separateConnection();
                Statement s = save.createStatement()) {
            save.setAutoCommit(false);
            s.execute(
                    "select 1 from app_lock where resource_key = '"
                            + blocker.key()
                            + "' for share");
            var acquisition =
                    CompletableFuture.supplyAsync(
                            () -> acquire(wanted, LockMode.WRITE, who, null), ASYNC);
            awaitSomeoneWaitingForARowLock();
            lapse(lapsesMeanwhile);
            save.commit();
            return acquisition.get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Outside a transaction an acquisition is one text of several statements, autocommitted:
     * PostgreSQL must run it as one implicit transaction, or the aggregate's advisory lock (the
     * first statement) would be gone before the clean-up and the grant. Forced: the clean-up waits
     * for a save's row lock on a lapsed row.
     */
    @Test
    void anAcquisitionOutsideATransactionHoldsItsAggregateUntilItsGrantIsDone() throws Exception {
        Lock blocker = write(LockKey.itemFilters(g * 100 + 9), ada);
        lapse(blocker.key());
        String heldByTheWaiter =
                "select count(*) from pg_locks where locktype = 'advisory' and granted"
                        + " and pid in (select pid from pg_locks where not granted and locktype <> 'advisory')";
        try (Connection save = store.separateConnection();
                Statement s = save.createStatement()) {
            save.setAutoCommit(false);
            s.execute(
                    "select 1 from app_lock where resource_key = '"
                            + blocker.key()
                            + "' for share");
            var acquisition = CompletableFuture.supplyAsync(() -> write(frame, sara), ASYNC);
            awaitSomeoneWaitingForARowLock();
            assertThat(store.number(heldByTheWaiter))
                    .as("the advisory lock outlives its statement")
                    .isEqualTo(1);
            var second = CompletableFuture.supplyAsync(() -> write(wheels, omar), ASYNC);
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(20))
                    .until(
                            () ->
                                    store.number(
                                                    "select count(*) from pg_locks where locktype = 'advisory' and not granted")
                                            == 1);
            assertThat(second).as("another acquisition in the aggregate waits").isNotDone();

            save.commit();
            assertThat(acquisition.get(30, TimeUnit.SECONDS).key()).isEqualTo(frame);
            assertThat(second.get(30, TimeUnit.SECONDS).key()).isEqualTo(wheels);
        }
        assertThat(store.number("select count(*) from pg_locks where locktype = 'advisory'"))
                .isZero();
    }

    @Test
    void aRowThatLapsesBetweenCleanUpAndGrantNeitherTripsTheUniqueIndexNorIsIgnored()
            throws Exception {
        Lock omars = write(frame, omar);

        Lock saras = acquireWhileTheCleanUpWaitsAndAnotherRowLapses(frame, sara, frame);

        assertThat(saras.userLogin()).isEqualTo("sara");
        assertThat(
                        store.number(
                                "select count(*) from app_lock where resource_key = ?",
                                frame.toString()))
                .isEqualTo(1);
        assertThat(
                        store.number(
                                "select count(*) from lock_event where event_type = 'EXPIRED' and fencing_token = ?",
                                omars.fencingToken()))
                .as("Omar's lapsed lock was deleted, and audited once")
                .isEqualTo(1);
    }

    /**
     * A grant refused by a lock that its holder releases before the refusal's conflicts are looked
     * up (each statement commits on its own) finds no live conflict: it is tried again and granted,
     * neither refused without a holder to name nor failed. Forced: the release runs just before the
     * look-up.
     */
    @Test
    void aGrantRefusedByALockReleasedBeforeItsLookUpIsTriedAgainAndGranted() {
        write(frame, omar);
        AtomicLong releasedBetween = new AtomicLong();
        store.beforeNext(
                LockStatements.CONFLICTS,
                () -> {
                    if (locks.release(frame, omar.ownerId(), null)) {
                        releasedBetween.incrementAndGet();
                    }
                });

        Lock saras = write(frame, sara);

        assertThat(releasedBetween)
                .as("Omar released between the refusal and its look-up")
                .hasValue(1);
        assertThat(saras.userLogin()).isEqualTo("sara");
        assertThat(history(frame))
                .containsExactly(
                        LockEventType.ACQUIRED, LockEventType.RELEASED, LockEventType.ACQUIRED);
    }

    @Test
    void aHeartbeatCannotReviveALockIntoAConflictWithAGrantMadeBesideIt() throws Exception {
        Lock omars = write(frame, omar);

        Lock saras = acquireWhileTheCleanUpWaitsAndAnotherRowLapses(whole, sara, frame);
        int revived = store.inTransaction(() -> locks.renew(omar.ownerId(), null));

        assertThat(revived).as("Omar's lapsed lock was deleted before Sara's grant").isZero();
        assertThat(verify(saras).key()).isEqualTo(whole);
        assertThatThrownBy(() -> verify(omars))
                .isInstanceOf(LockNotHeldException.class)
                .hasMessageContaining("expired");
    }

    @Test
    void aHeartbeatRacingTheReleaseOfItsTabNeverBringsTheLockBack() throws Exception {
        acquire(frame, LockMode.WRITE, sara, "tab");
        CountDownLatch renewed = new CountDownLatch(1);
        CountDownLatch heartbeatMayCommit = new CountDownLatch(1);
        var heartbeat =
                CompletableFuture.supplyAsync(
                        () ->
                                store.inTransaction(
                                        () -> {
                                            int n = locks.renew(sara.ownerId(), "tab");
                                            renewed.countDown();
                                            LockStore.unchecked(
                                                    () ->
                                                            heartbeatMayCommit.await(
                                                                    30, TimeUnit.SECONDS));
                                            return n;
                                        }),
                        ASYNC);
        assertThat(renewed.await(30, TimeUnit.SECONDS)).isTrue();
        var tabClosed =
                CompletableFuture.supplyAsync(
                        () -> store.inTransaction(() -> locks.releaseView(sara.ownerId(), "tab")),
                        ASYNC);
        awaitSomeoneWaitingForARowLock(); // the release waits for the heartbeat's row lock

        heartbeatMayCommit.countDown();
        assertThat(heartbeat.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(tabClosed.get(30, TimeUnit.SECONDS))
                .as("released after the renewal")
                .containsExactly(frame);
        assertThat(store.inTransaction(() -> locks.renew(sara.ownerId(), "tab")))
                .as("a late heartbeat")
                .isZero();
        assertThat(locks.holder(frame)).isEmpty();
    }

    @Test
    void aDeadlockVictimIsRetriedInsteadOfFailing() throws Exception {
        write(frame, sara);
        write(wheels, sara);
        long first =
                store.number("select min(id) from app_lock where owner_id = ?", sara.ownerId());
        long last = store.number("select max(id) from app_lock where owner_id = ?", sara.ownerId());
        try (Connection other = store.separateConnection();
                Statement s = other.createStatement()) {
            other.setAutoCommit(false);
            s.execute("set deadlock_timeout = '30s'"); // so that the store's transaction is the
            // victim
            s.execute("select 1 from app_lock where id = " + last + " for update");
            var releaseAll =
                    CompletableFuture.supplyAsync(
                            () -> store.inTransaction(() -> locks.releaseAll(sara.ownerId())),
                            ASYNC);
            awaitSomeoneWaitingForARowLock(); // the release holds the first row and waits for the
            // last
            var crossing =
                    CompletableFuture.runAsync(
                            () ->
                                    LockStore.unchecked(
                                            () ->
                                                    s.execute(
                                                            "select 1 from app_lock where id = "
                                                                    + first
                                                                    + " for update")),
                            ASYNC);
            crossing.get(
                    30,
                    TimeUnit.SECONDS); // the database broke the deadlock by aborting the release
            other.commit();
            assertThat(releaseAll.get(30, TimeUnit.SECONDS))
                    .containsExactlyInAnyOrder(frame, wheels);
        }
        assertThat(history(frame))
                .containsExactly(LockEventType.ACQUIRED, LockEventType.SESSION_ENDED);
    }

    @Test
    void theStoreRefusesAConnectionThatIsNotReadCommitted() throws Exception {
        try (Connection c = store.separateConnection()) {
            Database.requireReadCommitted(c);
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertThatThrownBy(() -> Database.requireReadCommitted(c))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("READ COMMITTED")
                    .hasMessageContaining("SERIALIZABLE");
        }
    }

    @Test
    void theLostLockSentenceSaysWhatHappenedWhenTheTokenIsUnknown() {
        Lock saras = write(whole, sara);
        Lock forged =
                new Lock(
                        whole,
                        whole,
                        LockMode.WRITE,
                        sara.ownerId(),
                        null,
                        "sara",
                        "Sara",
                        Instant.now(),
                        Instant.now(),
                        Instant.now(),
                        saras.fencingToken() + 1_000_000);
        assertThatThrownBy(() -> verify(forged))
                .isInstanceOf(LockNotHeldException.class)
                .hasMessageStartingWith("You hold no lock on " + whole)
                .hasMessageContaining("Sara has been editing it since");
    }

    // ---- limits ----

    @Test
    void aSessionCannotHoldMoreLocksThanTheCapAndReTakingItsOwnDoesNotCount() {
        JdbcLockManager capped = store.manager(Duration.ofSeconds(60));
        capped.settings =
                Settings.from(
                        k ->
                                k.equals(Settings.MAX_LOCKS_PER_SESSION)
                                        ? Optional.of("2")
                                        : Optional.empty());
        store.inTransaction(() -> capped.acquire(variables, LockMode.WRITE, sara, null));
        store.inTransaction(() -> capped.acquire(frame, LockMode.WRITE, sara, null));
        assertThat(
                        store.inTransaction(
                                        () -> capped.acquire(frame, LockMode.WRITE, sara, "tab-2"))
                                .key())
                .as("re-taking a lock one holds is not a new one")
                .isEqualTo(frame);
        assertThatThrownBy(
                        () ->
                                store.inTransaction(
                                        () -> capped.acquire(wheels, LockMode.WRITE, sara, null)))
                .isInstanceOf(LockLimitException.class)
                .hasMessageContaining("(2)")
                .hasMessageContaining("LOCKS_MAX_LOCKS_PER_SESSION");
        assertThat(locks.locksOf(sara.ownerId()))
                .extracting(Lock::key)
                .containsExactlyInAnyOrder(variables, frame);
        assertThat(history(wheels)).as("a refusal by the cap grants nothing").isEmpty();
        assertThat(
                        store.inTransaction(
                                        () -> capped.acquire(wheels, LockMode.WRITE, omar, null))
                                .key())
                .as("the cap is per session")
                .isEqualTo(wheels);
        store.inTransaction(() -> capped.release(variables, sara.ownerId(), null));
        assertThatThrownBy(
                        () ->
                                store.inTransaction(
                                        () -> capped.acquire(wheels, LockMode.WRITE, sara, null)))
                .as("one below the cap, a refusal is Omar's doing, not the cap's")
                .isInstanceOf(LockUnavailableException.class);
        store.inTransaction(() -> capped.release(frame, sara.ownerId(), null));
        store.inTransaction(() -> capped.release(wheels, omar.ownerId(), null));
        assertThat(
                        store.inTransaction(
                                        () -> capped.acquire(wheels, LockMode.WRITE, sara, null))
                                .key())
                .as("released locks make room")
                .isEqualTo(wheels);
    }

    @Test
    void heartbeatsCannotKeepALockPastItsMaximumAgeButOpeningTheRecordAgainCan() {
        JdbcLockManager aged = store.manager(Duration.ofSeconds(60));
        aged.maxAge = Duration.ofMinutes(10);
        Lock saras = store.inTransaction(() -> aged.acquire(whole, LockMode.WRITE, sara, "tab"));
        store.execute(
                "update app_lock set acquired_at = statement_timestamp() - interval '9 minutes 30 seconds'"
                        + " where resource_key = ?",
                whole.toString());
        assertThat(store.inTransaction(() -> aged.renew(sara.ownerId(), "tab"))).isEqualTo(1);
        Lock renewed = locks.holder(whole).orElseThrow();
        assertThat(renewed.expiresAt())
                .as("the last renewal stops at the maximum age")
                .isBefore(renewed.acquiredAt().plus(Duration.ofMinutes(10)).plusMillis(1))
                .isBefore(Instant.now().plusSeconds(35));

        store.execute(
                "update app_lock set acquired_at = statement_timestamp() - interval '11 minutes'"
                        + " where resource_key = ?",
                whole.toString());
        assertThat(store.inTransaction(() -> aged.renew(sara.ownerId(), "tab")))
                .as("past it: no renewal")
                .isZero();

        Lock again = store.inTransaction(() -> aged.acquire(whole, LockMode.WRITE, sara, "tab"));
        assertThat(again.fencingToken()).isEqualTo(saras.fencingToken());
        assertThat(again.acquiredAt())
                .as("opening it again starts its age again")
                .isAfter(Instant.now().minusSeconds(30));
        assertThat(store.inTransaction(() -> aged.renew(sara.ownerId(), "tab"))).isEqualTo(1);
    }

    // ---- session ends ----

    @Test
    void aSessionHoldingTenThousandLocksReleasesThemAllAtLogoutInOneStatement() {
        JdbcLockManager big = store.manager(Duration.ofSeconds(60));
        big.settings =
                Settings.from(
                        k ->
                                k.equals(Settings.MAX_LOCKS_PER_SESSION)
                                        ? Optional.of("10000")
                                        : Optional.empty());
        long first = NEXT_AGGREGATE.getAndAdd(1_000) + 1;
        for (int batch = 0; batch < 20; batch++) {
            java.util.List<LockKey> keys = new java.util.ArrayList<>();
            for (int i = 0; i < 500; i++) { // 500 item filters in one aggregate per batch
                keys.add(
                        LockKey.itemFilters(
                                (first + batch) * 100 + 1 + i % 99 + (i / 99) * 1_000_000L));
            }
            store.inTransaction(() -> big.acquireAll(keys, LockMode.WRITE, ada, null));
        }
        assertThat(locks.locksOf(ada.ownerId())).hasSize(10_000);
        long start = System.nanoTime();
        List<LockKey> released = store.inTransaction(() -> big.releaseAll(ada.ownerId()));
        System.out.printf(
                "Release-all of 10,000 locks: %d ms%n", (System.nanoTime() - start) / 1_000_000);
        assertThat(released).hasSize(10_000);
        assertThat(locks.locksOf(ada.ownerId())).isEmpty();
        assertThat(store.inTransaction(() -> big.releaseAll(ada.ownerId())))
                .as("a second unbind finds nothing")
                .isEmpty();
    }
}
