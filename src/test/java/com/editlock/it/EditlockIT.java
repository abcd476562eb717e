package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.editlock.it.browser.Browser;
import com.editlock.it.node.Deployments;
import com.editlock.it.node.TestDatabase;
import com.editlock.it.node.TestSettings;
import com.editlock.lock.Lock;
import com.editlock.lock.LockAdministration;
import com.editlock.lock.LockEvent;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockNotHeldException;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LockUnavailableException;
import com.editlock.lock.internal.JdbcLockManager;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.transaction.UserTransaction;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.naming.InitialContext;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Editlock deployed as built (target/editlock.war) on Payara Micro against an embedded PostgreSQL
 * with the demo data (configurators 1–4; items 1–3 belong to configurator 1, 4–6 to 2, 7–9 to 3,
 * 10–11 to 4). In-container tests drive the {@link LockManager}; {@code @RunAsClient} tests use
 * HTTP like a browser or a script, one cookie jar per person. Every test uses resources of its own
 * and leaves them free.
 */
@ExtendWith(ArquillianExtension.class)
public class EditlockIT {

    @Deployment
    public static WebArchive deployment() {
        return Deployments.editlock(EditlockIT.class);
    }

    @Inject LockManager locks;

    @Inject LockAdministration admin;

    /** The store itself, for what no face offers: a heartbeat's renewal, now. */
    @Inject JdbcLockManager store;

    @ArquillianResource URL base;

    private static LockOwner owner(String login, String name) {
        return new LockOwner(UUID.randomUUID().toString(), login, name);
    }

    // ---- the lock core, in the container ----

    @Test
    void concurrentAcquireHasExactlyOneWinnerEveryRound() throws Exception {
        LockKey key = LockKey.configurator(2);
        int threads = 32;
        ManagedThreadFactory factory =
                InitialContext.doLookup("java:comp/DefaultManagedThreadFactory");
        ExecutorService pool = Executors.newFixedThreadPool(threads, factory);
        try {
            for (int round = 0; round < 15; round++) {
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<Lock>> attempts = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    LockOwner contender = owner("user" + i, "User " + i);
                    attempts.add(
                            pool.submit(
                                    () -> {
                                        start.await(30, TimeUnit.SECONDS);
                                        try {
                                            return locks.acquire(
                                                    key, LockMode.WRITE, contender, null);
                                        } catch (LockUnavailableException e) {
                                            return null;
                                        }
                                    }));
                }
                List<Lock> winners = new ArrayList<>();
                for (Future<Lock> attempt : attempts) {
                    Lock won = attempt.get(60, TimeUnit.SECONDS);
                    if (won != null) {
                        winners.add(won);
                    }
                }
                assertThat(winners).as("winners of round %d", round).hasSize(1);
                assertThat(
                                rows(
                                        "select count(*) from app_lock where resource_key = ?",
                                        key.toString()))
                        .isEqualTo(1);
                assertThat(locks.release(key, winners.get(0).ownerId(), null)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theRunningApplicationHashesPasswordsAt600000IterationsOfSha256() throws Exception {
        try (Connection c = dataSource().getConnection();
                var ps =
                        c.prepareStatement(
                                "select password_hash from app_user where login = 'sara'")) {
            var rs = ps.executeQuery();
            assertThat(rs.next())
                    .as("the demo data, installed by the application, has sara")
                    .isTrue();
            assertThat(rs.getString(1).split(":"))
                    .as("algorithm:iterations:salt:hash, as the application wrote it")
                    .hasSize(4)
                    .startsWith("PBKDF2WithHmacSHA256", "600000");
        }
    }

    @Test
    void reacquiringIsIdempotentAndMovesTheLockToTheNewTab() throws Exception {
        long mark = lastEventId(); // other suites use these keys too: only this test's events count
        LockKey key = LockKey.variables(3);
        LockOwner sara = owner("sara", "Sara");
        Lock first = locks.acquire(key, LockMode.WRITE, sara, "tab-1");
        Lock again = locks.acquire(key, LockMode.WRITE, sara, "tab-2");

        assertThat(again.fencingToken()).isEqualTo(first.fencingToken());
        assertThat(again.view()).isEqualTo("tab-2");
        assertThat(locks.releaseView(sara.ownerId(), "tab-1")).isEmpty();
        assertThat(locks.releaseView(sara.ownerId(), "tab-2")).containsExactly(key);
        assertThat(types(key, mark)).startsWith("VIEW_CLOSED", "REACQUIRED", "ACQUIRED");
    }

    @Test
    void aReleasedLockCanBeTakenByAnotherAndEveryStepIsAudited() throws Exception {
        long mark = lastEventId(); // other suites use these keys too: only this test's events count
        LockKey key = LockKey.itemFilters(1);
        LockOwner sara = owner("sara", "Sara");
        LockOwner omar = owner("omar", "Omar");
        Lock saras = locks.acquire(key, LockMode.WRITE, sara, null);

        assertThatThrownBy(() -> locks.acquire(key, LockMode.WRITE, omar, null))
                .isInstanceOfSatisfying(
                        LockUnavailableException.class,
                        e -> {
                            assertThat(e.holder().displayName()).isEqualTo("Sara");
                            assertThat(e.holder().acquiredAt()).isEqualTo(saras.acquiredAt());
                            assertThat(e.holder().expiresAt()).isAfter(Instant.now());
                        });
        assertThat(locks.release(key, sara.ownerId(), null)).isTrue();
        assertThat(locks.release(key, sara.ownerId(), null)).as("release is idempotent").isFalse();
        Lock omars = locks.acquire(key, LockMode.WRITE, omar, null);

        assertThat(omars.fencingToken()).isGreaterThan(saras.fencingToken());
        assertThat(locks.holder(key)).map(Lock::userLogin).contains("omar");
        locks.release(key, omar.ownerId(), null);
        assertThat(types(key, mark))
                .containsExactly("RELEASED", "ACQUIRED", "RELEASED", "DENIED", "ACQUIRED");
    }

    @Test
    void readersShareAndWritersExcludeEveryone() {
        LockKey key = LockKey.itemFilters(2);
        LockOwner sara = owner("sara", "Sara");
        LockOwner omar = owner("omar", "Omar");
        LockOwner ada = owner("ada", "Ada");
        locks.acquire(key, LockMode.READ, sara, null);
        locks.acquire(key, LockMode.READ, omar, null);

        assertThatThrownBy(() -> locks.acquire(key, LockMode.WRITE, ada, null))
                .isInstanceOfSatisfying(
                        LockUnavailableException.class,
                        e ->
                                assertThat(e.holders())
                                        .extracting(Lock::displayName)
                                        .containsExactlyInAnyOrder("Sara", "Omar"));
        assertThatThrownBy(() -> locks.acquire(key, LockMode.WRITE, sara, null))
                .as("no upgrade while another reader is there")
                .isInstanceOf(LockUnavailableException.class);

        locks.release(key, omar.ownerId(), null);
        assertThat(locks.acquire(key, LockMode.WRITE, sara, null).mode())
                .as("upgrade")
                .isEqualTo(LockMode.WRITE);
        assertThatThrownBy(() -> locks.acquire(key, LockMode.READ, omar, null))
                .isInstanceOf(LockUnavailableException.class);
        locks.releaseAll(sara.ownerId());
    }

    @Test
    void aLapsedLockIsSweptByTheTimerAndAuditedAsExpired() throws Exception {
        long mark = lastEventId(); // other suites use these keys too: only this test's events count
        LockKey key = LockKey.itemFilters(3);
        LockOwner sara = owner("sara", "Sara");
        locks.acquire(key, LockMode.WRITE, sara, null);
        // Shorten this lease to 2 s instead of waiting for the deployment's 30 s one.
        execute(
                "update app_lock set expires_at = statement_timestamp() + interval '2 seconds' where resource_key = ?",
                key.toString());

        await().atMost(Duration.ofSeconds(2 + TestSettings.SWEEP_SECONDS + 2))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () ->
                                rows(
                                                "select count(*) from app_lock where resource_key = ?",
                                                key.toString())
                                        == 0);
        assertThat(types(key, mark)).startsWith("EXPIRED", "ACQUIRED");
        assertThat(store.renew(sara.ownerId(), null)).as("nothing left to renew").isZero();
    }

    @Test
    void aHeartbeatRevivesALapsedLockThatNobodyTook() throws Exception {
        long mark = lastEventId(); // other suites use these keys too: only this test's events count
        LockKey key = LockKey.itemFilters(4);
        LockOwner sara = owner("sara", "Sara");
        UserTransaction tx = InitialContext.doLookup("java:comp/UserTransaction");
        // Lapsed, and (inside this transaction) not yet swept.
        tx.begin();
        try {
            locks.acquire(key, LockMode.WRITE, sara, null);
            execute(
                    "update app_lock set expires_at = statement_timestamp() - interval '1 second'"
                            + " where resource_key = ?",
                    key.toString());
            assertThat(store.renew(sara.ownerId(), null)).isEqualTo(1);
            assertThat(locks.holder(key))
                    .map(Lock::expiresAt)
                    .get()
                    .satisfies(
                            at ->
                                    assertThat(at)
                                            .isAfter(
                                                    Instant.now()
                                                            .plusSeconds(
                                                                    TestSettings.LEASE_SECONDS
                                                                            - 5)));
        } finally {
            tx.commit();
        }
        assertThat(types(key, mark)).startsWith("RENEWED_AFTER_LAPSE", "ACQUIRED");
        locks.releaseAll(sara.ownerId());
    }

    @Test
    void releaseAllReleasesEverythingOnceAndIsSafeToCallTwice() throws Exception {
        long mark = lastEventId(); // other suites use these keys too: only this test's events count
        LockOwner sara = owner("sara", "Sara");
        List<LockKey> keys =
                List.of(LockKey.itemFilters(5), LockKey.itemFilters(6), LockKey.variables(2));
        locks.acquireAll(keys, LockMode.WRITE, sara, "tab");

        assertThat(locks.releaseAll(sara.ownerId())).containsExactlyInAnyOrderElementsOf(keys);
        assertThat(locks.releaseAll(sara.ownerId())).isEmpty();
        for (LockKey key : keys) {
            assertThat(types(key, mark)).startsWith("SESSION_ENDED", "ACQUIRED");
            assertThat(types(key, mark).stream().filter("SESSION_ENDED"::equals)).hasSize(1);
        }
    }

    @Test
    void severalLocksAreAllOrNone() {
        LockOwner sara = owner("sara", "Sara");
        LockOwner omar = owner("omar", "Omar");
        locks.acquire(LockKey.itemFilters(8), LockMode.WRITE, omar, null);

        assertThatThrownBy(
                        () ->
                                locks.acquireAll(
                                        List.of(
                                                LockKey.itemFilters(9),
                                                LockKey.itemFilters(8),
                                                LockKey.itemFilters(7)),
                                        LockMode.WRITE,
                                        sara,
                                        null))
                .isInstanceOfSatisfying(
                        LockUnavailableException.class,
                        e -> assertThat(e.key()).isEqualTo(LockKey.itemFilters(8)));
        assertThat(locks.locksOf(sara.ownerId())).as("none of the three was granted").isEmpty();
        locks.releaseAll(omar.ownerId());
    }

    @Test
    void anAggregateLockAndTheSubPageLocksInsideItExcludeEachOther() {
        LockOwner sara = owner("sara", "Sara");
        LockOwner omar = owner("omar", "Omar");
        locks.acquire(LockKey.itemFilters(10), LockMode.WRITE, sara, null);
        locks.acquire(LockKey.variables(4), LockMode.WRITE, omar, null);

        assertThatThrownBy(
                        () ->
                                locks.acquire(
                                        LockKey.configurator(4),
                                        LockMode.WRITE,
                                        owner("ada", "Ada"),
                                        null))
                .isInstanceOfSatisfying(
                        LockUnavailableException.class,
                        e ->
                                assertThat(e.holders())
                                        .extracting(Lock::displayName)
                                        .containsExactlyInAnyOrder("Sara", "Omar"));
        locks.releaseAll(sara.ownerId());
        locks.releaseAll(omar.ownerId());
    }

    @Test
    void aDeadlockVictimIsRetriedWhereItsTransactionBegins() throws Exception {
        LockOwner sara = owner("sara", "Sara");
        locks.acquireAll(
                List.of(LockKey.itemFilters(5), LockKey.itemFilters(6)),
                LockMode.WRITE,
                sara,
                null);
        long first = rows("select min(id) from app_lock where owner_id = ?", sara.ownerId());
        long last = rows("select max(id) from app_lock where owner_id = ?", sara.ownerId());
        ManagedThreadFactory factory =
                InitialContext.doLookup("java:comp/DefaultManagedThreadFactory");
        ExecutorService pool = Executors.newFixedThreadPool(2, factory);
        try (Connection other = dataSource().getConnection();
                var s = other.createStatement()) {
            other.setAutoCommit(false);
            s.execute("set deadlock_timeout = '30s'"); // so that the lock manager's transaction is
            // the victim
            s.execute("select 1 from app_lock where id = " + last + " for update");
            Future<List<LockKey>> releaseAll = pool.submit(() -> locks.releaseAll(sara.ownerId()));
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> rows("select count(*) from pg_locks where not granted") > 0);
            pool.submit(
                            () ->
                                    s.execute(
                                            "select 1 from app_lock where id = "
                                                    + first
                                                    + " for update"))
                    .get(30, TimeUnit.SECONDS); // the database broke the deadlock by aborting
            // releaseAll's attempt
            other.commit();
            assertThat(releaseAll.get(30, TimeUnit.SECONDS))
                    .as("retried, not failed")
                    .containsExactlyInAnyOrder(LockKey.itemFilters(5), LockKey.itemFilters(6));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aForceReleasedHolderIsFencedOffWithASentenceThatSaysWhy() throws Exception {
        LockKey key = LockKey.itemFilters(11);
        LockOwner sara = owner("sara", "Sara");
        Lock saras = locks.acquire(key, LockMode.WRITE, sara, null);

        assertThatThrownBy(() -> admin.forceRelease(key, "ada", "  "))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(locks.holder(key)).as("a refused force release changes nothing").isPresent();
        assertThat(admin.forceRelease(key, "ada", "Sara is on holiday"))
                .extracting(Lock::userLogin)
                .containsExactly("sara");
        Lock omars = locks.acquire(key, LockMode.WRITE, owner("omar", "Omar"), null);

        UserTransaction tx = InitialContext.doLookup("java:comp/UserTransaction");
        tx.begin();
        try {
            assertThatThrownBy(() -> locks.verify(key, sara.ownerId(), saras.fencingToken()))
                    .isInstanceOf(LockNotHeldException.class)
                    .hasMessageContaining(
                            "Ada released your lock: Sara is on holiday (item:11:filters)")
                    .hasMessageContaining("Omar has been editing it since");
        } finally {
            tx.rollback();
        }
        LockEvent forced =
                admin.history(key, 10).stream()
                        .filter(e -> e.type() == LockEventType.FORCE_RELEASED)
                        .findFirst()
                        .orElseThrow();
        assertThat(forced.actor()).isEqualTo("ada");
        assertThat(forced.reason()).isEqualTo("Sara is on holiday");
        assertThat(forced.userLogin()).isEqualTo("sara");
        locks.release(key, omars.ownerId(), null);
    }

    // ---- the JSON API and the screens, over HTTP ----

    @Test
    @RunAsClient
    void aSecondSessionIsRefusedUntilTheFirstLogsOut() {
        Browser sara = new Browser(uri()).basic("sara", "demo");
        Browser omar = new Browser(uri()).basic("omar", "demo");

        HttpResponse<String> taken =
                sara.postJson("api/locks", "{\"resource\":\"configurator:1\",\"mode\":\"WRITE\"}");
        assertThat(taken.statusCode()).isEqualTo(201);
        var lock = json(taken.body());
        assertThat(lock.getString("resource")).isEqualTo("configurator:1");
        assertThat(lock.getString("mode")).isEqualTo("WRITE");
        assertThat(lock.getJsonObject("holder").getString("user")).isEqualTo("sara");
        assertThat(lock.getJsonObject("holder").getString("name")).isEqualTo("Sara");
        assertThat(Instant.parse(lock.getString("expiresAt")))
                .isAfter(Instant.parse(lock.getString("acquiredAt")));
        assertThat(lock.getJsonNumber("token").longValue()).isPositive();
        assertThat(taken.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/api/locks/configurator:1"));

        HttpResponse<String> refused =
                omar.postJson("api/locks", "{\"resource\":\"configurator:1\"}");
        assertThat(refused.statusCode()).isEqualTo(409);
        var conflict = json(refused.body());
        assertThat(conflict.getString("error")).isEqualTo("locked");
        assertThat(conflict.getJsonObject("holder").getString("name")).isEqualTo("Sara");
        assertThat(conflict.getString("since")).isEqualTo(lock.getString("acquiredAt"));
        assertThat(conflict.getString("expiresAt")).isEqualTo(lock.getString("expiresAt"));

        assertThat(sara.post("api/logout").statusCode()).isEqualTo(204);
        HttpResponse<String> now = omar.postJson("api/locks", "{\"resource\":\"configurator:1\"}");
        assertThat(now.statusCode()).isEqualTo(201);
        assertThat(omar.delete("api/locks/configurator:1").statusCode()).isEqualTo(204);

        List<String> history =
                new Browser(uri())
                        .basic("ada", "demo")
                        .get("api/locks/events?resource=configurator:1")
                        .body()
                        .lines()
                        .toList();
        var events = jsonArray(String.join("", history));
        assertThat(events.stream().map(e -> e.asJsonObject().getString("type")).limit(5).toList())
                .containsExactly("RELEASED", "ACQUIRED", "SESSION_ENDED", "DENIED", "ACQUIRED");
    }

    @Test
    void anApiTokenOpensEveryApiCallWithoutASessionUntilItIsRevoked() throws Exception {
        Browser sara = new Browser(uri()).basic("sara", "demo");
        long before = rows("select count(*) from api_token");
        // Bad requests change nothing, and say why.
        for (String body :
                List.of(
                        "{\"name\":\"\"}",
                        "{\"name\":\"x\",\"days\":0}",
                        "{\"name\":\"x\",\"days\":366}",
                        "{\"name\":\"x\",\"days\":1.5}",
                        "{\"name\":\"a\\u0007b\"}",
                        "{\"name\":\"x\",\"colour\":\"red\"}")) {
            HttpResponse<String> refused = sara.postJson("api/tokens", body);
            assertThat(refused.statusCode()).as(body).isEqualTo(400);
            assertThat(json(refused.body()).getString("error")).as(body).isNotBlank();
        }
        HttpResponse<String> forOmar =
                sara.postJson("api/tokens", "{\"name\":\"x\",\"user\":\"omar\"}");
        assertThat(forOmar.statusCode()).isEqualTo(403);
        assertThat(rows("select count(*) from api_token")).isEqualTo(before);

        HttpResponse<String> made =
                sara.postJson("api/tokens", "{\"name\":\"nightly import\",\"days\":30}");
        assertThat(made.statusCode()).isEqualTo(201);
        assertThat(made.headers().firstValue("Cache-Control"))
                .hasValueSatisfying(v -> assertThat(v).contains("no-store"));
        var created = json(made.body());
        String secret = created.getString("token");
        long id = created.getJsonNumber("id").longValue();
        assertThat(secret).startsWith("elk_").hasSize(47);
        assertThat(created.getString("user")).isEqualTo("sara");
        assertThat(Instant.parse(created.getString("expiresAt")))
                .isBetween(
                        Instant.now().plus(Duration.ofDays(29)),
                        Instant.now().plus(Duration.ofDays(31)));
        assertThat(
                        rows(
                                "select count(*) from api_token where token_hash = encode(sha256(?::bytea), 'hex')",
                                secret))
                .as("the database keeps the token's SHA-256")
                .isEqualTo(1);
        assertThat(
                        rows(
                                "select count(*) from api_token where token_hash = ? or hint = ?",
                                secret,
                                secret))
                .as("and never the token itself")
                .isZero();
        String listed = sara.get("api/tokens").body();
        assertThat(listed).contains("\"nightly import\"").doesNotContain(secret);

        // A script with the token only: every call of the API, no session, no cookie.
        Browser script = new Browser(uri()).bearer(secret);
        List<HttpResponse<String>> calls = new ArrayList<>();
        calls.add(script.get("api/locks"));
        HttpResponse<String> taken =
                script.postJson("api/locks", "{\"resource\":\"item:5:filters\"}");
        calls.add(taken);
        assertThat(taken.statusCode()).isEqualTo(201);
        assertThat(json(taken.body()).getJsonObject("holder").getString("name")).isEqualTo("Sara");
        calls.add(script.get("api/locks/item:5:filters"));
        calls.add(script.post("api/locks/heartbeat"));
        calls.add(script.get("api/configurators/2"));
        calls.add(script.get("api/tokens"));
        assertThat(calls)
                .allSatisfy(
                        r -> assertThat(r.statusCode()).as(r.uri().toString()).isBetween(200, 204));
        assertThat(calls)
                .allSatisfy(r -> assertThat(r.headers().firstValue("Set-Cookie")).isEmpty());
        assertThat(script.get("api/locks/events").statusCode())
                .as("the token has sara's roles, not more")
                .isEqualTo(403);
        assertThat(script.postJson("api/tokens", "{\"name\":\"another\"}").statusCode())
                .as("a token cannot make tokens")
                .isEqualTo(403);
        HttpResponse<String> other = sara.postJson("api/tokens", "{\"name\":\"report\"}");
        long otherId = json(other.body()).getJsonNumber("id").longValue();
        HttpResponse<String> revokeOther = script.delete("api/tokens/" + otherId);
        assertThat(revokeOther.statusCode()).as("a token revokes no other token").isEqualTo(403);
        assertThat(json(revokeOther.body()).getString("error")).contains("only itself");
        Browser report = new Browser(uri()).bearer(json(other.body()).getString("token"));
        assertThat(report.get("api/locks").statusCode()).as("still valid").isEqualTo(200);
        assertThat(report.delete("api/tokens/" + otherId).statusCode())
                .as("but a token may revoke itself")
                .isEqualTo(204);
        assertThat(report.get("api/locks").statusCode()).isEqualTo(401);
        // Sara's own session is another owner: the script's lock is not hers to release there.
        assertThat(sara.postJson("api/locks", "{\"resource\":\"item:5:filters\"}").statusCode())
                .isEqualTo(409);

        // Omar can neither list nor revoke it; a made-up token is refused.
        Browser omar = new Browser(uri()).basic("omar", "demo");
        assertThat(omar.get("api/tokens?user=sara").statusCode()).isEqualTo(403);
        assertThat(omar.delete("api/tokens/" + id).statusCode()).isEqualTo(404);
        HttpResponse<String> forged =
                new Browser(uri()).bearer("elk_" + "A".repeat(43)).get("api/locks");
        assertThat(forged.statusCode()).isEqualTo(401);
        assertThat(forged.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));

        // Revoked: refused from the very next call, and its lock is released.
        assertThat(sara.delete("api/tokens/" + id).statusCode()).isEqualTo(204);
        HttpResponse<String> after = script.get("api/locks");
        assertThat(after.statusCode()).isEqualTo(401);
        assertThat(json(after.body()).getString("error")).contains("revoked");
        assertThat(sara.get("api/locks/item:5:filters").statusCode()).isEqualTo(404);
        var audit =
                jsonArray(sara.get("api/tokens").body()).stream()
                        .map(v -> v.asJsonObject())
                        .filter(t -> t.getJsonNumber("id").longValue() == id)
                        .findFirst()
                        .orElseThrow();
        assertThat(audit.getString("revokedBy")).isEqualTo("sara");
        assertThat(audit.getBoolean("active")).isFalse();
        assertThat(audit.containsKey("lastUsedAt")).isTrue();

        // An admin makes one for Omar and revokes it; both are on record.
        Browser ada = new Browser(uri()).basic("ada", "demo");
        HttpResponse<String> adas =
                ada.postJson("api/tokens", "{\"name\":\"omar's report\",\"user\":\"omar\"}");
        assertThat(adas.statusCode()).isEqualTo(201);
        long omarsToken = json(adas.body()).getJsonNumber("id").longValue();
        assertThat(
                        new Browser(uri())
                                .bearer(json(adas.body()).getString("token"))
                                .get("api/locks")
                                .statusCode())
                .isEqualTo(200);
        assertThat(ada.delete("api/tokens/" + omarsToken).statusCode()).isEqualTo(204);
        var omars = jsonArray(omar.get("api/tokens").body()).get(0).asJsonObject();
        assertThat(omars.getString("createdBy")).isEqualTo("ada");
        assertThat(omars.getString("revokedBy")).isEqualTo("ada");
    }

    @Test
    @RunAsClient
    void aPersonMakesUsesAndRevokesAnApiTokenOnTheTokensScreen() {
        Browser omar = new Browser(uri());
        omar.login("omar", "demo");
        omar.get("tokens.xhtml");
        omar.submit("make", Map.of("make:name", "report script"), "make:create");
        var shown =
                java.util.regex.Pattern.compile(
                                "value=\"(elk_[A-Za-z0-9_-]{43})\"[^>]*data-testid=\"new-token\"")
                        .matcher(omar.page());
        assertThat(shown.find()).as("the new token, shown once: %s", omar.page()).isTrue();
        String secret = shown.group(1);
        assertThat(omar.page()).contains("Copy it now: it is not shown again.");
        assertThat(new Browser(uri()).bearer(secret).get("api/locks").statusCode()).isEqualTo(200);

        omar.get("tokens.xhtml");
        assertThat(omar.page())
                .as("listed by name and its first characters, never again in full")
                .contains("report script")
                .contains(secret.substring(0, 10))
                .doesNotContain(secret);
        omar.submit("tokens", Map.of(), "tokens:table:0:revoke");
        assertThat(omar.page()).contains("Token “report script” of Omar is revoked.");
        assertThat(new Browser(uri()).bearer(secret).get("api/locks").statusCode()).isEqualTo(401);

        omar.get("tokens.xhtml");
        omar.submit("make", Map.of("make:name", "x", "make:days", "3650"), "make:create");
        assertThat(omar.page())
                .as("a lifetime not offered is refused")
                .doesNotContain("data-testid=\"new-token\"");
    }

    @Test
    @RunAsClient
    void anUnsavedDraftIsKeptForItsAuthorOnly() {
        Browser sara = new Browser(uri()).basic("sara", "demo");
        Browser omar = new Browser(uri()).basic("omar", "demo");
        String path = "api/drafts/configurator:4:variables";
        // Bad drafts are refused with a sentence, and nothing is kept.
        for (String body :
                List.of(
                        "{\"fields\":{\"edit:name\":5},\"base\":{}}",
                        "{\"fields\":[],\"base\":{}}",
                        "{\"fields\":{},\"base\":{},\"owner\":\"omar\"}",
                        "{\"fields\":{\"edit:name\":\"a\\u0000b\"},\"base\":{}}",
                        "{\"fields\":{\"edit:name\":\""
                                + "x".repeat(70_000)
                                + "\"},\"base\":{}}")) {
            HttpResponse<String> refused = sara.send("PUT", path, body);
            assertThat(refused.statusCode())
                    .as(body.substring(0, Math.min(60, body.length())))
                    .isEqualTo(400);
            assertThat(json(refused.body()).getString("error")).isNotBlank();
        }
        assertThat(sara.get(path).statusCode()).isEqualTo(404);
        assertThat(
                        sara.send(
                                        "PUT",
                                        "api/drafts/configurator:999",
                                        "{\"fields\":{},\"base\":{}}")
                                .statusCode())
                .isEqualTo(404);

        HttpResponse<String> kept =
                sara.send(
                        "PUT",
                        path,
                        "{\"fields\":{\"edit:name\":\"Grüße, Sara\"},\"base\":{\"edit:name\":\"Old\"}}");
        assertThat(kept.statusCode()).isEqualTo(200);
        var back = json(sara.get(path).body());
        assertThat(back.getJsonObject("fields").getString("edit:name")).isEqualTo("Grüße, Sara");
        assertThat(back.getJsonObject("base").getString("edit:name")).isEqualTo("Old");

        // Nobody else reads, restores or discards it: each person's calls name only their own.
        assertThat(omar.get(path).statusCode()).isEqualTo(404);
        assertThat(omar.delete(path).statusCode()).isEqualTo(404);
        assertThat(json(sara.get(path).body()).getJsonObject("fields").getString("edit:name"))
                .isEqualTo("Grüße, Sara");

        assertThat(sara.delete(path).statusCode()).isEqualTo(204);
        assertThat(sara.get(path).statusCode()).isEqualTo(404);
    }

    @Test
    @RunAsClient
    void aKeptDraftIsOfferedWhenItsAuthorOpensTheRecordAgainAndASaveDeletesIt() {
        Browser sara = new Browser(uri());
        sara.login("sara", "demo");
        assertThat(
                        sara.send(
                                        "PUT",
                                        "api/drafts/configurator:3",
                                        "{\"fields\":{\"edit:description\":\"typed before the crash\"},"
                                                + "\"base\":{\"edit:description\":\"\"}}")
                                .statusCode())
                .isEqualTo(200);
        sara.get("configurator.xhtml?id=3");
        assertThat(sara.testId("lock-status")).contains("You are editing");
        assertThat(sara.page())
                .as("the offer, and the draft for the page's script to restore")
                .contains("data-testid=\"draft-notice\"")
                .contains("data-testid=\"restore-draft\"")
                .contains("typed before the crash");
        Browser omar = new Browser(uri());
        omar.login("omar", "demo");
        omar.get("configurator.xhtml?id=3");
        assertThat(omar.page())
                .as("never on anyone else's page")
                .doesNotContain("typed before the crash");

        sara.submit("edit", Map.of(), "edit:save");
        assertThat(sara.page()).contains("Your lock is released");
        assertThat(sara.get("api/drafts/configurator:3").statusCode())
                .as("a successful save deletes the saver's draft")
                .isEqualTo(404);
        sara.get("configurator.xhtml?id=3");
        assertThat(sara.page()).doesNotContain("data-testid=\"draft-notice\"");
        sara.submit("edit", Map.of(), "edit:done");
    }

    @Test
    void aTakeOverNeedsTheRoleAndAReasonAndFencesTheHolderOff() throws Exception {
        String path = "api/locks/item:6:filters/take-over";
        Browser sara = new Browser(uri()).basic("sara", "demo");
        HttpResponse<String> taken =
                sara.postJson("api/locks", "{\"resource\":\"item:6:filters\"}");
        assertThat(taken.statusCode()).isEqualTo(201);
        long saras = json(taken.body()).getJsonNumber("token").longValue();

        HttpResponse<String> editor =
                new Browser(uri()).basic("omar", "demo").postJson(path, "{\"reason\":\"x\"}");
        assertThat(editor.statusCode()).as("an editor without the role").isEqualTo(403);
        Browser ada = new Browser(uri()).basic("ada", "demo");
        for (String body :
                List.of(
                        "{}",
                        "{\"reason\":\" \"}",
                        "{\"reason\":\"a\\u0007b\"}",
                        "{\"reason\":5}")) {
            HttpResponse<String> refused = ada.postJson(path, body);
            assertThat(refused.statusCode()).as(body).isEqualTo(400);
            assertThat(json(refused.body()).getString("error")).isNotBlank();
        }
        assertThat(
                        json(sara.get("api/locks/item:6:filters").body())
                                .getJsonObject("holder")
                                .getString("user"))
                .as("nothing changed")
                .isEqualTo("sara");

        // The role, given to Omar, lets him take it over; his Basic session reads his roles afresh.
        execute("insert into app_user_role (login, role) values ('omar', 'take-over')");
        try {
            Browser omar = new Browser(uri()).basic("omar", "demo");
            HttpResponse<String> took = omar.postJson(path, "{\"reason\":\"Sara is on holiday\"}");
            assertThat(took.statusCode()).isEqualTo(200);
            var lock = json(took.body());
            assertThat(lock.getJsonObject("holder").getString("user")).isEqualTo("omar");
            assertThat(lock.getJsonNumber("token").longValue()).isNotEqualTo(saras);
            assertThat(sara.get("api/locks").body()).as("Sara holds nothing now").isEqualTo("[]");
            assertThat(sara.delete("api/locks/item:6:filters").statusCode()).isEqualTo(403);
            var history =
                    jsonArray(ada.get("api/locks/events?resource=item:6:filters&limit=3").body());
            assertThat(history.stream().map(e -> e.asJsonObject().getString("type")).toList())
                    .containsExactly("ACQUIRED", "TAKEN_OVER", "ACQUIRED");
            var takenOver = history.get(1).asJsonObject();
            assertThat(takenOver.getString("actor")).isEqualTo("omar");
            assertThat(takenOver.getString("reason")).isEqualTo("Sara is on holiday");
            assertThat(takenOver.getJsonNumber("token").longValue()).isEqualTo(saras);
            assertThat(omar.delete("api/locks/item:6:filters").statusCode()).isEqualTo(204);
        } finally {
            execute("delete from app_user_role where login = 'omar' and role = 'take-over'");
        }
    }

    /**
     * An admin adds a person through {@code /api/people} with a password Editlock makes (shown
     * once), the person logs in and works, gets the {@code take-over} role and uses it; a reset
     * password stops the old one. Bad requests are refused with a sentence and change nothing; an
     * editor and a token may not manage people.
     */
    @Test
    void anAdminAddsAPersonGivesThemRolesAndResetsTheirPassword() throws Exception {
        Browser ada = new Browser(uri()).basic("ada", "demo");
        String login = "p" + Long.toString(System.nanoTime(), 36);
        long people = rows("select count(*) from app_user");
        long changes = rows("select count(*) from person_change");
        for (String body :
                List.of(
                        "{\"login\":\"Bad Login\",\"name\":\"X\",\"roles\":[\"editor\"]}",
                        "{\"login\":\"" + login + "\",\"name\":\" \",\"roles\":[\"editor\"]}",
                        "{\"login\":\"" + login + "\",\"name\":\"X\",\"roles\":[]}",
                        "{\"login\":\"" + login + "\",\"name\":\"X\",\"roles\":[\"root\"]}",
                        "{\"login\":\"" + login + "\",\"name\":\"X\",\"roles\":\"editor\"}",
                        "{\"login\":\"sara\",\"name\":\"Sara\",\"roles\":[\"editor\"]}")) {
            HttpResponse<String> refused = ada.postJson("api/people", body);
            assertThat(refused.statusCode()).as(body).isIn(400, 409);
            assertThat(json(refused.body()).getString("error")).as(body).isNotBlank();
        }
        HttpResponse<String> byEditor =
                new Browser(uri())
                        .basic("omar", "demo")
                        .postJson(
                                "api/people",
                                "{\"login\":\""
                                        + login
                                        + "\",\"name\":\"X\",\"roles\":[\"editor\"]}");
        assertThat(byEditor.statusCode()).isEqualTo(403);
        assertThat(rows("select count(*) from app_user")).as("nothing added").isEqualTo(people);
        assertThat(rows("select count(*) from person_change")).isEqualTo(changes);

        HttpResponse<String> added =
                ada.postJson(
                        "api/people",
                        "{\"login\":\""
                                + login
                                + "\",\"name\":\"Ivy Park\",\"roles\":[\"editor\"]}");
        assertThat(added.statusCode()).isEqualTo(201);
        assertThat(added.headers().firstValue("Cache-Control"))
                .hasValueSatisfying(v -> assertThat(v).contains("no-store"));
        var person = json(added.body());
        String password = person.getString("password");
        assertThat(password).hasSize(20);
        assertThat(person.getJsonArray("roles").getString(0)).isEqualTo("editor");
        assertThat(ada.get("api/people").body()).contains("\"Ivy Park\"").doesNotContain(password);

        Browser ivy = new Browser(uri()).basic(login, password);
        String key = "configurator:" + newConfigurator("Ivy's record");
        HttpResponse<String> taken = ivy.postJson("api/locks", "{\"resource\":\"" + key + "\"}");
        assertThat(taken.statusCode()).isEqualTo(201);
        assertThat(json(taken.body()).getJsonObject("holder").getString("name"))
                .isEqualTo("Ivy Park");
        Browser sara = new Browser(uri()).basic("sara", "demo");
        HttpResponse<String> saras =
                sara.postJson("api/locks", "{\"resource\":\"item:7:filters\"}");
        assertThat(saras.statusCode()).isEqualTo(201);
        String takeOver = "api/locks/item:7:filters/take-over";
        assertThat(ivy.postJson(takeOver, "{\"reason\":\"x\"}").statusCode())
                .as("an editor without take-over")
                .isEqualTo(403);

        HttpResponse<String> roles =
                ada.send(
                        "PUT",
                        "api/people/" + login + "/roles",
                        "{\"roles\":[\"editor\",\"take-over\"]}");
        assertThat(roles.statusCode()).isEqualTo(200);
        assertThat(json(roles.body()).getJsonArray("roles").toString())
                .isEqualTo("[\"editor\",\"take-over\"]");
        await("Ivy's session reads her roles again (locks.role.recheck.seconds)")
                .atMost(Duration.ofSeconds(10))
                .until(
                        () ->
                                ivy.postJson(takeOver, "{\"reason\":\"Sara is away\"}").statusCode()
                                        == 200);
        assertThat(ivy.delete("api/locks/item:7:filters").statusCode()).isEqualTo(204);

        HttpResponse<String> reset = ada.post("api/people/" + login + "/password");
        assertThat(reset.statusCode()).isEqualTo(200);
        String second = json(reset.body()).getString("password");
        assertThat(second).isNotEqualTo(password);
        assertThat(new Browser(uri()).basic(login, password).get("api/locks").statusCode())
                .as("the old password")
                .isEqualTo(401);
        assertThat(new Browser(uri()).basic(login, second).get("api/locks").statusCode())
                .isEqualTo(200);
        assertThat(
                        jsonArray(ada.get("api/people/" + login + "/changes").body()).stream()
                                .map(
                                        c ->
                                                c.asJsonObject().getString("change")
                                                        + " by "
                                                        + c.asJsonObject().getString("by"))
                                .toList())
                .containsExactly("password by ada", "roles by ada", "added by ada");
        assertThat(ivy.delete("api/locks/" + key).statusCode()).isEqualTo(204);
    }

    /**
     * An admin disables a person with a reason: what they hold is released with that reason in the
     * history, their API token stops working at once, their session ends 3 s later, and they can no
     * longer log in; enabled again, they log in, but the token stays revoked. Nobody disables
     * themselves, the last admin keeps the role, and a disable without a reason changes nothing.
     */
    @Test
    void aDisabledPersonIsLoggedOutEverywhereAndWhatTheyHoldIsFreedWithTheReason()
            throws Exception {
        Browser ada = new Browser(uri()).basic("ada", "demo");
        String login = "d" + Long.toString(System.nanoTime(), 36);
        String password =
                json(ada.postJson(
                                        "api/people",
                                        "{\"login\":\""
                                                + login
                                                + "\",\"name\":\"Dora Leaves\","
                                                + "\"roles\":[\"editor\"]}")
                                .body())
                        .getString("password");
        Browser dora = new Browser(uri()).basic(login, password);
        String key = "configurator:" + newConfigurator("Dora's record");
        assertThat(dora.postJson("api/locks", "{\"resource\":\"" + key + "\"}").statusCode())
                .isEqualTo(201);
        String token =
                json(dora.postJson("api/tokens", "{\"name\":\"import\"}").body())
                        .getString("token");
        Browser script = new Browser(uri()).bearer(token);
        assertThat(script.get("api/locks").statusCode()).isEqualTo(200);

        String disable = "api/people/" + login + "/disable";
        for (String body : List.of("{}", "{\"reason\":\" \"}", "{\"reason\":\"a\\u0007b\"}")) {
            assertThat(ada.postJson(disable, body).statusCode()).as(body).isEqualTo(400);
        }
        assertThat(
                        new Browser(uri())
                                .basic("omar", "demo")
                                .postJson(disable, "{\"reason\":\"x\"}")
                                .statusCode())
                .isEqualTo(403);
        assertThat(ada.postJson("api/people/nobody/disable", "{\"reason\":\"x\"}").statusCode())
                .isEqualTo(404);
        HttpResponse<String> self = ada.postJson("api/people/ada/disable", "{\"reason\":\"x\"}");
        assertThat(self.statusCode()).isEqualTo(409);
        assertThat(json(self.body()).getString("error")).contains("yourself");
        // The last admin who can log in keeps the role: other suites' admins (a provider's, say)
        // are disabled for the check and enabled again after it.
        List<String> otherAdmins =
                Json.createReader(new StringReader(ada.get("api/people").body()))
                        .readArray()
                        .stream()
                        .map(p -> p.asJsonObject())
                        .filter(
                                p ->
                                        !p.getString("login").equals("ada")
                                                && !p.getBoolean("disabled")
                                                && p.getJsonArray("roles")
                                                        .contains(Json.createValue("admin")))
                        .map(p -> p.getString("login"))
                        .toList();
        for (String other : otherAdmins) {
            assertThat(
                            ada.postJson(
                                            "api/people/" + other + "/disable",
                                            "{\"reason\":\"EditlockIT: the last admin\"}")
                                    .statusCode())
                    .isEqualTo(200);
        }
        try {
            HttpResponse<String> last =
                    ada.send("PUT", "api/people/ada/roles", "{\"roles\":[\"editor\"]}");
            assertThat(last.statusCode()).as("the last admin keeps the role").isEqualTo(409);
            assertThat(json(last.body()).getString("error")).contains("last admin");
        } finally {
            for (String other : otherAdmins) {
                ada.post("api/people/" + other + "/enable");
            }
        }
        assertThat(
                        json(dora.get("api/locks/" + key).body())
                                .getJsonObject("holder")
                                .getString("user"))
                .as("nothing changed")
                .isEqualTo(login);

        HttpResponse<String> disabled =
                ada.postJson(disable, "{\"reason\":\"Left the company on Friday\"}");
        assertThat(disabled.statusCode()).isEqualTo(200);
        var person = json(disabled.body());
        assertThat(person.getBoolean("disabled")).isTrue();
        assertThat(person.getString("disabledBy")).isEqualTo("ada");
        assertThat(person.getInt("held")).isZero();
        assertThat(ada.get("api/locks/" + key).statusCode())
                .as("the record is free")
                .isEqualTo(404);
        var history = jsonArray(ada.get("api/locks/events?resource=" + key + "&limit=1").body());
        assertThat(history.get(0).asJsonObject().getString("type")).isEqualTo("FORCE_RELEASED");
        assertThat(history.get(0).asJsonObject().getString("reason"))
                .isEqualTo("Left the company on Friday");
        assertThat(script.get("api/locks").statusCode()).as("her token, at once").isEqualTo(401);
        await("her session ends on every node 3 s after the release (DisabledPeople)")
                .atMost(Duration.ofSeconds(6))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> dora.get("api/locks").statusCode() == 401);
        assertThat(new Browser(uri()).basic(login, password).get("api/locks").statusCode())
                .as("her password")
                .isEqualTo(401);
        assertThat(ada.postJson(disable, "{\"reason\":\"again\"}").statusCode()).isEqualTo(409);

        assertThat(ada.post("api/people/" + login + "/enable").statusCode()).isEqualTo(200);
        assertThat(new Browser(uri()).basic(login, password).get("api/locks").statusCode())
                .as("enabled again")
                .isEqualTo(200);
        assertThat(script.get("api/locks").statusCode())
                .as("the token stays revoked")
                .isEqualTo(401);
        assertThat(
                        jsonArray(ada.get("api/people/" + login + "/changes").body()).stream()
                                .map(c -> c.asJsonObject().getString("change"))
                                .toList())
                .containsExactly("enabled", "disabled", "added");
    }

    @Test
    void aHandOverIsAskedDeclinedWithAReplyHandedOverAndTimesOutThroughTheApi() throws Exception {
        String lock = "api/locks/item:7:filters";
        String requests = lock + "/handover-requests";
        Browser sara = new Browser(uri()).basic("sara", "demo");
        Browser omar = new Browser(uri()).basic("omar", "demo");
        Browser ada = new Browser(uri()).basic("ada", "demo");
        assertThat(sara.postJson("api/locks", "{\"resource\":\"item:7:filters\"}").statusCode())
                .isEqualTo(201);

        HttpResponse<String> asked = omar.postJson(requests, "{\"note\":\"Just the price\"}");
        assertThat(asked.statusCode()).isEqualTo(201);
        var request = json(asked.body());
        long first = request.getJsonNumber("id").longValue();
        assertThat(asked.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith(requests + "/" + first));
        assertThat(request.getString("state")).isEqualTo("OPEN");
        assertThat(request.getJsonObject("holder").getString("user")).isEqualTo("sara");
        assertThat(request.getString("note")).isEqualTo("Just the price");

        Browser admin = new Browser(uri());
        admin.login("ada", "demo");
        admin.get("admin/locks.xhtml");
        assertThat(admin.page())
                .as("the dashboard shows who waits for an answer")
                .containsPattern(
                        "data-testid=\"asked-item:7:filters\">Omar \\(until [0-9:]{7,8}\\h?[AP]M\\)");
        HttpResponse<String> again = omar.postJson(requests, "{}");
        assertThat(again.statusCode()).as("one open request per person and record").isEqualTo(409);
        assertThat(json(again.body()).getString("error")).isEqualTo("already-asked");
        assertThat(ada.get(requests + "/" + first).statusCode())
                .as("nobody else sees it")
                .isEqualTo(404);
        HttpResponse<String> notHis =
                omar.postJson(requests + "/" + first + "/answer", "{\"handOver\":true}");
        assertThat(notHis.statusCode()).as("only the holder answers").isEqualTo(403);
        assertThat(json(notHis.body()).getString("message")).contains("Only Sara");
        assertThat(
                        sara.postJson(requests + "/" + first + "/answer", "{\"handOver\":\"yes\"}")
                                .statusCode())
                .isEqualTo(400);
        assertThat(jsonArray(sara.get(requests).body()))
                .as("Sara sees what waits for her answer")
                .extracting(r -> r.asJsonObject().getJsonNumber("id").longValue())
                .containsExactly(first);

        var declined =
                json(
                        sara.postJson(
                                        requests + "/" + first + "/answer",
                                        "{\"handOver\":false,\"reply\":\"Ten more minutes\"}")
                                .body());
        assertThat(declined.getString("state")).isEqualTo("DECLINED");
        assertThat(json(omar.get(requests + "/" + first).body()).getString("sentence"))
                .isEqualTo("Sara keeps editing: “Ten more minutes”");
        assertThat(json(sara.get(lock).body()).getJsonObject("holder").getString("user"))
                .isEqualTo("sara");

        long second = json(omar.postJson(requests, "").body()).getJsonNumber("id").longValue();
        var handed = sara.postJson(requests + "/" + second + "/answer", "{\"handOver\":true}");
        assertThat(handed.statusCode()).isEqualTo(200);
        assertThat(json(handed.body()).getString("state")).isEqualTo("HANDED_OVER");
        assertThat(json(sara.get(lock).body()).getJsonObject("holder").getString("user"))
                .as("Omar holds it now")
                .isEqualTo("omar");
        assertThat(sara.get("api/locks").body()).isEqualTo("[]");
        var history = jsonArray(ada.get("api/locks/events?resource=item:7:filters&limit=6").body());
        assertThat(history.stream().map(e -> e.asJsonObject().getString("type")).toList())
                .containsExactly(
                        "ACQUIRED",
                        "HANDED_OVER",
                        "HANDOVER_ASKED",
                        "HANDOVER_DECLINED",
                        "HANDOVER_ASKED",
                        "ACQUIRED");
        assertThat(history.get(3).asJsonObject().getString("reason")).isEqualTo("Ten more minutes");

        // Sara asks for it back; Omar does not answer: she is told, nothing changes.
        long third =
                json(sara.postJson(requests, "{\"note\":\"Forgot one thing\"}").body())
                        .getJsonNumber("id")
                        .longValue();
        await("the request times out after the timeout and a sweep")
                .atMost(
                        Duration.ofSeconds(
                                TestSettings.HANDOVER_TIMEOUT_SECONDS
                                        + TestSettings.SWEEP_SECONDS
                                        + 5))
                .pollInterval(Duration.ofSeconds(1))
                .until(
                        () -> {
                            // Omar's client stays: its session and its lease are renewed.
                            assertThat(omar.postJson("api/locks/heartbeat", "").statusCode())
                                    .isEqualTo(204);
                            return json(sara.get(requests + "/" + third).body())
                                    .getString("state")
                                    .equals("TIMED_OUT");
                        });
        assertThat(json(sara.get(requests + "/" + third).body()).getString("sentence"))
                .isEqualTo("Omar did not answer in time; nothing changed. You may ask again.");
        assertThat(json(omar.get(lock).body()).getJsonObject("holder").getString("user"))
                .isEqualTo("omar");
        assertThat(
                        jsonArray(
                                        ada.get("api/locks/events?resource=item:7:filters&limit=1")
                                                .body())
                                .get(0)
                                .asJsonObject()
                                .getString("type"))
                .isEqualTo("HANDOVER_TIMED_OUT");
        assertThat(omar.delete(lock).statusCode()).isEqualTo(204);
        HttpResponse<String> nobody = sara.postJson(requests, "{}");
        assertThat(nobody.statusCode()).isEqualTo(409);
        assertThat(json(nobody.body()).getString("error")).isEqualTo("nobody-holds");
    }

    @Test
    @RunAsClient
    void healthAndMetricsAnswerAMonitoringSystemWithoutALogin() {
        // Health and metrics live at the server's root, wherever the application is deployed (here:
        // /editlock).
        Browser monitor = new Browser(uri().resolve("/"));
        HttpResponse<String> ready = monitor.get("health/ready");
        assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
        var check =
                json(ready.body())
                        .getJsonArray("checks")
                        .getValuesAs(jakarta.json.JsonObject.class)
                        .stream()
                        .filter(c -> c.getString("name").equals("lock-store"))
                        .findFirst()
                        .orElseThrow();
        assertThat(check.getString("status")).isEqualTo("UP");

        Browser sara = new Browser(uri()).basic("sara", "demo");
        assertThat(sara.postJson("api/locks", "{\"resource\":\"item:9:filters\"}").statusCode())
                .isEqualTo(201);
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(
                        () ->
                                assertThat(monitor.get("metrics").body())
                                        .contains("lock_acquisitions_total")
                                        .contains("locks_held{kind=\"item_filters\"")
                                        .contains("lock_sweep_runs_total"));
        assertThat(sara.delete("api/locks/item:9:filters").statusCode()).isEqualTo(204);
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(
                        () ->
                                assertThat(monitor.get("metrics").body())
                                        .contains("lock_releases_total{cause=\"released\"")
                                        .contains("lock_hold_seconds"));
    }

    @Test
    @RunAsClient
    void theApiAnswersBadInputWithAClearErrorAndChangesNothing() {
        Browser sara = new Browser(uri()).basic("sara", "demo");
        Browser omar = new Browser(uri()).basic("omar", "demo");
        Browser ada = new Browser(uri()).basic("ada", "demo");

        assertError(
                sara.postJson("api/locks", "{\"resource\":\"configurator:x\"}"),
                400,
                "is not a resource key");
        assertError(
                sara.postJson("api/locks", "{\"resource\":\"configurator:0\"}"),
                400,
                "positive id");
        assertError(
                sara.postJson("api/locks", "{\"resource\":\"item:1\"}"),
                400,
                "is not a resource key");
        assertError(
                sara.postJson("api/locks", "{\"resource\":\"configurator:999\"}"),
                404,
                "There is no");
        assertError(
                sara.postJson("api/locks", "{\"resource\":\"item:999:filters\"}"),
                404,
                "There is no");
        assertError(
                sara.postJson("api/locks", "{\"resource\":\"configurator:1\",\"mode\":\"SHARED\"}"),
                400,
                "READ or WRITE");
        assertError(sara.postJson("api/locks", "{\"resource\":12}"), 400, "must be a string");
        assertError(sara.postJson("api/locks", "{\"mode\":\"WRITE\"}"), 400, "is missing");
        assertError(sara.postJson("api/locks", "not json"), 400, "not valid JSON");
        assertError(sara.postJson("api/locks", "[]"), 400, "JSON object");
        assertError(sara.postJson("api/locks", ""), 400, "JSON object");
        assertError(sara.get("api/locks/configurator:1:variables"), 404, "is not locked");
        assertError(sara.get("api/locks/nonsense"), 400, "is not a resource key");
        assertError(sara.delete("api/locks/configurator:1:variables"), 404, "nobody else");
        assertError(new Browser(uri()).get("api/locks"), 401, "Log in");
        assertError(
                new Browser(uri()).basic("sara", "wrong").get("api/locks"),
                401,
                "Wrong user name or password");
        assertError(sara.get("api/locks/events"), 403, "Only an admin");
        assertThat(ada.get("api/locks").body()).isEqualTo("[]").as("bad input took no lock");

        assertThat(
                        omar.postJson("api/locks", "{\"resource\":\"configurator:1:variables\"}")
                                .statusCode())
                .isEqualTo(201);
        assertError(sara.delete("api/locks/configurator:1:variables"), 403, "only an admin");
        assertError(ada.delete("api/locks/configurator:1:variables"), 400, "reason");
        assertThat(omar.get("api/locks").body()).contains("configurator:1:variables");
        assertThat(sara.get("api/locks").body()).as("editors see their own locks").isEqualTo("[]");
        assertThat(ada.get("api/locks").body()).as("admins see all").contains("\"name\":\"Omar\"");

        String before =
                json(omar.get("api/locks/configurator:1:variables").body()).getString("expiresAt");
        assertError(omar.post("api/locks/heartbeat?view=x"), 400, "view must be");
        assertThat(omar.post("api/locks/heartbeat?view=" + UUID.randomUUID()).statusCode())
                .isEqualTo(204);
        // The node renews its noted beats once a second: past two rounds, still nothing renewed.
        await("another tab's heartbeat renews nothing of this one")
                .during(Duration.ofMillis(2_200))
                .atMost(Duration.ofSeconds(4))
                .until(
                        () ->
                                json(omar.get("api/locks/configurator:1:variables").body())
                                        .getString("expiresAt")
                                        .equals(before));
        assertThat(omar.post("api/locks/heartbeat").statusCode()).isEqualTo(204);
        await("the session's heartbeat renews it within a second")
                .atMost(Duration.ofSeconds(3))
                .until(
                        () ->
                                Instant.parse(
                                                json(omar.get("api/locks/configurator:1:variables")
                                                                .body())
                                                        .getString("expiresAt"))
                                        .isAfter(Instant.parse(before)));

        assertThat(
                        ada.delete(
                                        "api/locks/configurator:1:variables?reason=Omar%20left%20for%20lunch")
                                .statusCode())
                .isEqualTo(204);
        assertError(omar.get("api/locks/configurator:1:variables"), 404, "is not locked");
        var forced =
                jsonArray(
                                ada.get(
                                                "api/locks/events?resource=configurator:1:variables&limit=1")
                                        .body())
                        .getJsonObject(0);
        assertThat(forced.getString("type")).isEqualTo("FORCE_RELEASED");
        assertThat(forced.getString("actor")).isEqualTo("ada");
        assertThat(forced.getString("reason")).isEqualTo("Omar left for lunch");
    }

    @Test
    @RunAsClient
    void anAbandonedSessionsLocksAreReleasedWhenItTimesOut() throws Exception {
        Browser omar = new Browser(uri()).basic("omar", "demo");
        Browser ada = new Browser(uri()).basic("ada", "demo");
        assertThat(
                        omar.postJson("api/locks", "{\"resource\":\"configurator:4:variables\"}")
                                .statusCode())
                .isEqualTo(201);
        java.time.Instant omarsLastRequest = java.time.Instant.now();
        Browser sara = new Browser(uri());
        sara.login("sara", "demo");
        sara.get("filters.xhtml?id=9");
        java.time.Instant sarasLastRequest = java.time.Instant.now();
        assertThat(sara.testId("lock-status")).contains("You are editing");

        // Both walk away: no request, no heartbeat. Their leases are pushed past the session's
        // timeout, so that only
        // the session's end can free them.
        outliveTheSession(List.of("configurator:4:variables", "item:9:filters"));
        await().atMost(
                        Duration.ofSeconds(
                                TestSettings.SESSION_TIMEOUT_SECONDS
                                        + TestSettings.REAP_SECONDS
                                        + 10))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () ->
                                ada.get("api/locks/configurator:4:variables").statusCode() == 404
                                        && ada.get("api/locks/item:9:filters").statusCode() == 404);
        for (String resource : List.of("configurator:4:variables", "item:9:filters")) {
            var ended =
                    jsonArray(ada.get("api/locks/events?resource=" + resource + "&limit=1").body())
                            .getJsonObject(0);
            assertThat(ended.getString("type")).as(resource).isEqualTo("SESSION_ENDED");
            // README: within timeout + 6 s of the session's last request (the container looks for
            // timed-out sessions every 5 s, and a second for the release).
            java.time.Instant last =
                    resource.startsWith("item") ? sarasLastRequest : omarsLastRequest;
            assertThat(java.time.Instant.parse(ended.getString("at")))
                    .as("%s ended within timeout + 6 s of its session's last request", resource)
                    .isBefore(
                            last.plusSeconds(
                                    TestSettings.SESSION_TIMEOUT_SECONDS
                                            + TestSettings.REAP_SECONDS
                                            + 1));
        }
    }

    @Test
    @RunAsClient
    void theConfiguratorScreenLocksBeforeEditingAndTellsOthersWho() {
        Browser sara = new Browser(uri());
        sara.get("login.xhtml");
        assertThat(sara.sessionId())
                .as("the login page keeps nothing for an anonymous visitor")
                .isEmpty();
        sara.login("sara", "demo");
        assertThat(sara.sessionId()).as("the session starts at login").isPresent();
        assertThat(sara.page()).contains("Configurators").contains("data-testid=\"logout\"");

        sara.get("configurator.xhtml?id=3");
        assertThat(sara.testId("lock-status")).contains("You are editing");
        assertThat(sara.testId("edit-form")).isPresent();
        assertThat(sara.testId("save")).isPresent();
        assertThat(sara.testId("done")).isPresent();

        Browser omar = new Browser(uri());
        omar.login("omar", "demo");
        omar.get("configurator.xhtml?id=3");
        assertThat(omar.testId("lock-status"))
                .hasValueSatisfying(
                        s ->
                                assertThat(s)
                                        .matches(
                                                "Being edited by Sara since \\d{1,2}:\\d\\d\\h[AP]M — free at \\d{1,2}:\\d\\d\\h[AP]M at the"
                                                        + " latest"));
        assertThat(omar.testId("edit-form")).as("read-only for Omar").isEmpty();
        var denied =
                jsonArray(
                                new Browser(uri())
                                        .basic("ada", "demo")
                                        .get("api/locks/events?resource=configurator:3&limit=1")
                                        .body())
                        .getJsonObject(0);
        assertThat(denied.getString("type"))
                .as("the refusal is in the history")
                .isEqualTo("DENIED");
        assertThat(denied.getString("user")).isEqualTo("omar");
        omar.get("configurators.xhtml");
        assertThat(omar.page()).contains("Being edited by Sara since");

        sara.submit("edit", Map.of("edit:name", "Business laptop (2027)"), "edit:save");
        assertThat(sara.page()).contains("Saved").contains("Business laptop (2027)");

        omar.get("configurator.xhtml?id=3");
        assertThat(omar.testId("lock-status")).contains("You are editing");
        assertThat(omar.page()).contains("value=\"Business laptop (2027)\"");
        omar.submit("edit", Map.of(), "edit:done");
        assertThat(omar.page()).contains("no longer editing");

        sara.get("configurator.xhtml?id=3");
        assertThat(sara.testId("lock-status")).contains("You are editing");
        sara.submit("logoutForm", Map.of(), "logoutForm:logout");
        assertThat(sara.page()).contains("You are logged out");
        var ended =
                jsonArray(
                                new Browser(uri())
                                        .basic("ada", "demo")
                                        .get("api/locks/events?resource=configurator:3&limit=1")
                                        .body())
                        .getJsonObject(0);
        assertThat(ended.getString("type"))
                .as("logout is recorded as the session's end")
                .isEqualTo("SESSION_ENDED");
        omar.get("configurator.xhtml?id=3");
        assertThat(omar.testId("lock-status"))
                .as("logout released Sara's lock")
                .contains("You are editing");
        omar.submit("edit", Map.of(), "edit:done");
    }

    /**
     * A session's timeout comes due while its save is in flight (the save is held in the database
     * by a second connection holding the aggregate's version row, past the session timeout; the
     * lease pushed out so that it cannot interfere). No session is ended while one of its requests
     * runs (neither Payara's reaper nor {@code SessionTimeout} does), so the lock stays and the
     * save lands under it; then the lock ends with the session, one timeout later. (Were a session
     * ended mid-save, its release would wait for the save's lock row: the logout case in {@code
     * ReliabilityIT}.)
     */
    @Test
    @RunAsClient
    void aSessionWhoseTimeoutComesDueWhileItsSaveIsInFlightSavesUnderItsLockThenTheLockEnds()
            throws Exception {
        Browser sara =
                new Browser(uri())
                        .basic("sara", "demo")
                        .timeout(Duration.ofMinutes(2)); // (a save held long)
        Browser ada = new Browser(uri()).basic("ada", "demo");
        assertThat(sara.postJson("api/locks", "{\"resource\":\"configurator:2\"}").statusCode())
                .isEqualTo(201);
        String body = sara.get("api/configurators/2").body();
        outliveTheSession(List.of("configurator:2"));
        Duration dueAndReaped =
                Duration.ofSeconds(
                        TestSettings.SESSION_TIMEOUT_SECONDS + TestSettings.REAP_SECONDS);
        long version;
        Future<HttpResponse<String>> save;
        try (Connection other = TestDatabase.connect()) {
            other.setAutoCommit(false);
            try (PreparedStatement hold =
                            other.prepareStatement(
                                    "select v.value from aggregate_version v"
                                            + " join configurator c on c.version_id = v.id where c.id = 2 for update of v");
                    ResultSet rs = hold.executeQuery()) {
                rs.next();
                version = rs.getLong(1);
            }
            save =
                    Executors.newSingleThreadExecutor()
                            .submit(() -> sara.send("PUT", "api/configurators/2", body));
            await().atMost(Duration.ofSeconds(20)).until(() -> sessionsWaitingForALock() >= 1);
            await().during(dueAndReaped.plusSeconds(2))
                    .atMost(dueAndReaped.plusSeconds(10))
                    .pollInterval(Duration.ofMillis(500))
                    .until(
                            () ->
                                    !save.isDone()
                                            && ada.get("api/locks/configurator:2").statusCode()
                                                    == 200);
            other.commit();
            assertThat(save.get(30, TimeUnit.SECONDS).statusCode())
                    .as("the save ran under its lock")
                    .isEqualTo(200);
        }
        try (Connection c = TestDatabase.connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select v.value"
                                        + " from aggregate_version v join configurator c on c.version_id = v.id where c.id = 2");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            assertThat(rs.getLong(1)).as("the save landed").isEqualTo(version + 1);
        }
        // Then the lock ends with the session, one timeout after the save's request.
        await().atMost(dueAndReaped.plusSeconds(TestSettings.SWEEP_SECONDS + 10))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () ->
                                List.of("SESSION_ENDED")
                                        .contains(
                                                jsonArray(
                                                                ada.get(
                                                                                "api/locks/events?resource=configurator:2&limit=1")
                                                                        .body())
                                                        .getJsonObject(0)
                                                        .getString("type")));
        assertThat(ada.get("api/locks/configurator:2").statusCode()).isEqualTo(404);
    }

    /**
     * A person with many records open, each in its own tab, keeps every one of their locks: up to
     * 64 editing pages in one browser session (Faces' default would end the oldest page at the
     * 26th). The 65th ends only the oldest page, whose lock is released.
     */
    @Test
    @RunAsClient
    void oneSessionKeepsTheLocksOfSixtyFourEditingTabsAndTheSixtyFifthEndsOnlyTheOldest()
            throws Exception {
        List<Long> ids = new ArrayList<>();
        try (Connection c = TestDatabase.connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                """
                        with v as (insert into aggregate_version (modified_by)
                                   select 'many-tabs' from generate_series(1, 65) returning id)
                        insert into configurator (version_id, name, description, status)
                        select id, 'Tab ' || id, '', 'DRAFT' from v order by id returning id""");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        Browser omar = new Browser(uri());
        Browser ada = new Browser(uri()).basic("ada", "demo");
        try {
            assertThat(omar.login("omar", "demo").statusCode()).isEqualTo(200);
            for (int i = 0; i < 64; i++) {
                assertThat(omar.get("configurator.xhtml?id=" + ids.get(i)).statusCode())
                        .isEqualTo(200);
                assertThat(omar.testId("lock-status")).contains("You are editing");
                if (i % 16 == 15) {
                    assertThat(omar.post("api/locks/heartbeat").statusCode()).isEqualTo(204);
                }
            }
            assertThat(heldOf(ada, ids))
                    .as("all 64 tabs hold their lock")
                    .containsExactlyElementsOf(ids.subList(0, 64));
            assertThat(omar.get("configurator.xhtml?id=" + ids.get(64)).statusCode())
                    .isEqualTo(200);
            assertThat(heldOf(ada, ids))
                    .as("the 65th tab took its lock and only the oldest page ended")
                    .containsExactlyElementsOf(ids.subList(1, 65));
        } finally {
            omar.post("api/logout");
            try (Connection c = TestDatabase.connect();
                    PreparedStatement ps =
                            c.prepareStatement(
                                    "with c as (delete from configurator where id = any (?)"
                                            + " returning version_id)"
                                            + " delete from aggregate_version where id in"
                                            + " (select version_id from c)")) {
                ps.setArray(1, c.createArrayOf("bigint", ids.toArray()));
                ps.executeUpdate();
            }
        }
    }

    /** Which of the configurators {@code ids} are locked now, in the order of {@code ids}. */
    private static List<Long> heldOf(Browser admin, List<Long> ids) {
        java.util.Set<String> held =
                jsonArray(admin.get("api/locks?limit=500").body()).stream()
                        .map(l -> l.asJsonObject().getString("resource"))
                        .collect(java.util.stream.Collectors.toSet());
        return ids.stream().filter(id -> held.contains("configurator:" + id)).toList();
    }

    /**
     * Moves the leases of {@code resources} an hour out (as if renewed), so that only their session
     * can end them.
     */
    private static void outliveTheSession(List<String> resources) throws Exception {
        try (Connection c = TestDatabase.connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "update app_lock"
                                        + " set expires_at = statement_timestamp() + interval '1 hour' where resource_key = any (?)")) {
            ps.setArray(1, c.createArrayOf("varchar", resources.toArray()));
            assertThat(ps.executeUpdate()).isEqualTo(resources.size());
        }
    }

    /** Database sessions waiting for a lock. */
    private static long sessionsWaitingForALock() throws Exception {
        try (Connection c = TestDatabase.connect();
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "select count(distinct pid) from pg_locks where not granted")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    @RunAsClient
    void aRecordOpenedToViewIsReadOnlyAndNeverAsksForTheLock() {
        Browser sara = new Browser(uri()).basic("sara", "demo");
        Browser ada = new Browser(uri()).basic("ada", "demo");
        assertThat(
                        sara.postJson("api/locks", "{\"resource\":\"configurator:4:variables\"}")
                                .statusCode())
                .isEqualTo(201);
        try {
            Browser omar = new Browser(uri());
            omar.login("omar", "demo");
            omar.get("variables.xhtml?id=4&view=true");
            assertThat(omar.testId("lock-status"))
                    .hasValueSatisfying(
                            s -> assertThat(s).startsWith("Being edited by Sara since"));
            assertThat(omar.testId("edit-form")).isEmpty();
            assertThat(omar.testId("current-values")).isPresent();
            assertThat(omar.testId("edit-now")).isEmpty();
            var last =
                    jsonArray(
                                    ada.get(
                                                    "api/locks/events?resource=configurator:4:variables&limit=1")
                                            .body())
                            .getJsonObject(0);
            assertThat(last.getString("type")).as("no refusal was audited").isEqualTo("ACQUIRED");

            assertThat(sara.delete("api/locks/configurator:4:variables").statusCode())
                    .isEqualTo(204);
            omar.get("variables.xhtml?id=4&view=true");
            assertThat(omar.testId("lock-status"))
                    .contains("Nobody is editing this now — you can edit it now.");
            assertThat(omar.testId("edit-now")).as("offered, not taken").isPresent();
            assertThat(omar.testId("edit-form")).isEmpty();
            assertThat(ada.get("api/locks/configurator:4:variables").statusCode())
                    .as("still free")
                    .isEqualTo(404);
            omar.get("variables.xhtml?id=4&view=yes");
            assertThat(omar.testId("edit-form"))
                    .as("anything but true edits, as without the parameter")
                    .isPresent();
            omar.submit("edit", Map.of(), "edit:done");
        } finally {
            sara.delete("api/locks/configurator:4:variables");
        }
    }

    @Test
    @RunAsClient
    void aDeepLinkLeadsThroughTheLoginBackToThePageAskedFor() {
        Browser omar = new Browser(uri());
        omar.get("variables.xhtml?id=2");
        assertThat(omar.page()).contains("Log in");
        omar.submit(
                "login",
                Map.of("login:username", "omar", "login:password", "demo"),
                "login:submit");
        assertThat(omar.page()).contains("Variables of");
        assertThat(omar.testId("lock-status")).contains("You are editing");
        omar.submit("edit", Map.of(), "edit:done");
        assertThat(omar.page()).contains("no longer editing");
    }

    @Test
    @RunAsClient
    void aRefusedSaveKeepsWhatTheUserTyped() {
        Browser sara = new Browser(uri());
        sara.login("sara", "demo");
        sara.get("configurator.xhtml?id=4");
        assertThat(sara.testId("lock-status")).contains("You are editing");

        Browser ada = new Browser(uri()).basic("ada", "demo");
        assertThat(ada.delete("api/locks/configurator:4?reason=Month-end%20closing").statusCode())
                .isEqualTo(204);

        sara.submit("edit", Map.of("edit:name", "Savings account — typed by Sara"), "edit:save");
        assertThat(sara.page())
                .contains("Ada released your lock: Month-end closing.")
                .contains("value=\"Savings account — typed by Sara\"");
        assertThat(sara.testId("current-values"))
                .as("the current values are shown beside")
                .isPresent();
        Browser omar = new Browser(uri()).basic("omar", "demo");
        assertThat(omar.get("configurators.xhtml").body()).doesNotContain("typed by Sara");
    }

    // ---- helpers ----

    private URI uri() {
        return URI.create(base.toString());
    }

    private static void assertError(HttpResponse<String> response, int status, String says) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        assertThat(json(response.body()).getString("error")).contains(says);
    }

    private static jakarta.json.JsonObject json(String body) {
        try (var reader = jakarta.json.Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    private static jakarta.json.JsonArray jsonArray(String body) {
        try (var reader = jakarta.json.Json.createReader(new StringReader(body))) {
            return reader.readArray();
        }
    }

    /** The types of {@code key}'s events after event {@code mark}, newest first. */
    private List<String> types(LockKey key, long mark) {
        return admin.history(key, 100).stream()
                .filter(e -> e.id() > mark)
                .map(e -> e.type().name())
                .toList();
    }

    private static long lastEventId() throws Exception {
        return rows("select coalesce(max(id), 0) from lock_event");
    }

    private static DataSource dataSource() throws Exception {
        return InitialContext.doLookup("java:app/jdbc/editlock");
    }

    /** A new configurator of its own, for a test that must not meet another's locks. */
    private static long newConfigurator(String name) throws Exception {
        return rows(
                "with v as (insert into aggregate_version (modified_by) values ('test') returning id)"
                        + " insert into configurator (version_id, name, description, status)"
                        + " select id, ?, '', 'DRAFT' from v returning id",
                name);
    }

    private static long rows(String sql, Object... params) throws Exception {
        try (Connection c = dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void execute(String sql, Object... params) throws Exception {
        try (Connection c = dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
        }
    }
}
