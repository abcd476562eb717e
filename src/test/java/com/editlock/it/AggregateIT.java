package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.editlock.configurator.ConfiguratorDraft;
import com.editlock.configurator.ConfiguratorService;
import com.editlock.configurator.Drafts;
import com.editlock.configurator.EditVisits;
import com.editlock.configurator.FiltersDraft;
import com.editlock.it.browser.Browser;
import com.editlock.it.node.Deployments;
import com.editlock.lock.Lock;
import com.editlock.lock.LockAdministration;
import com.editlock.lock.LockEvent;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockNotHeldException;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LockUnavailableException;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
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
 * The configurator aggregate: the coarse-grained lock, sub-page locks, fenced saves, the implicit
 * lock, and the three editing screens. Demo data: configurator 1 has items 1–3, 2 has 4–6, 3 has
 * 7–9, 4 has 10–11.
 */
@ExtendWith(ArquillianExtension.class)
public class AggregateIT {

    @Deployment
    public static WebArchive deployment() {
        return Deployments.editlock(AggregateIT.class);
    }

    @Inject LockManager locks;

    @Inject LockAdministration admin;

    @Inject ConfiguratorService configurators;

    @Inject EditVisits visits;

    @Inject Drafts drafts;

    @ArquillianResource URL base;

    // ---- in the container ----

    /**
     * Many owners race for the aggregate and its sub-pages at once, again and again; replaying the
     * audit history in order then finds no moment at which two owners held conflicting locks.
     */
    @Test
    void aRaceOfAggregateAndSubPageLocksNeverGrantsConflictingLocks() throws Exception {
        List<LockKey> keys =
                List.of(
                        LockKey.configurator(2),
                        LockKey.variables(2),
                        LockKey.itemFilters(4),
                        LockKey.itemFilters(5),
                        LockKey.itemFilters(6));
        long since = scalar("select coalesce(max(id), 0) from lock_event");
        int threads = 12;
        int rounds = 40;
        ManagedThreadFactory factory =
                InitialContext.doLookup("java:comp/DefaultManagedThreadFactory");
        ExecutorService pool = Executors.newFixedThreadPool(threads, factory);
        AtomicInteger grants = new AtomicInteger();
        AtomicInteger denials = new AtomicInteger();
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Future<?>> runs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            LockOwner me = new LockOwner(UUID.randomUUID().toString(), "racer" + t, "Racer " + t);
            runs.add(
                    pool.submit(
                            () -> {
                                start.await(30, TimeUnit.SECONDS);
                                ThreadLocalRandom random = ThreadLocalRandom.current();
                                for (int round = 0; round < rounds; round++) {
                                    if (random.nextBoolean()) {
                                        locks.releaseAll(me.ownerId());
                                    }
                                    LockKey key = keys.get(random.nextInt(keys.size()));
                                    LockMode mode =
                                            random.nextInt(4) == 0 ? LockMode.READ : LockMode.WRITE;
                                    try {
                                        locks.acquire(key, mode, me, null);
                                        grants.incrementAndGet();
                                    } catch (LockUnavailableException e) {
                                        denials.incrementAndGet();
                                    }
                                }
                                locks.releaseAll(me.ownerId());
                                return null;
                            }));
        }
        for (Future<?> run : runs) {
            run.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertThat(grants.get()).as("grants").isPositive();
        assertThat(denials.get()).as("denials: the race really contended").isPositive();
        assertThat(conflictingGrants(since, keys)).isEmpty();
        assertThat(scalar("select count(*) from app_lock where aggregate_key = 'configurator:2'"))
                .isZero();
    }

    @Test
    void theServiceRefusesEveryWriteWithoutALiveCoveringLockAndChangesNothing() {
        ConfiguratorDraft before = configurators.current(2).orElseThrow();
        ConfiguratorDraft renamed =
                new ConfiguratorDraft(
                        2,
                        "Renamed without a lock",
                        before.description(),
                        before.status(),
                        before.items(),
                        before.variables(),
                        before.version());
        LockOwner sara = new LockOwner(UUID.randomUUID().toString(), "sara", "Sara");

        assertThatThrownBy(() -> configurators.saveConfigurator(null, renamed))
                .isInstanceOf(LockNotHeldException.class)
                .hasMessageContaining("nothing was saved");

        Lock filters = locks.acquire(LockKey.itemFilters(4), LockMode.WRITE, sara, null);
        assertThatThrownBy(() -> configurators.saveConfigurator(filters, renamed))
                .isInstanceOf(LockNotHeldException.class)
                .hasMessageContaining("does not cover configurator:2");
        locks.releaseAll(sara.ownerId());

        Lock whole = locks.acquire(LockKey.configurator(2), LockMode.WRITE, sara, null);
        admin.forceRelease(LockKey.configurator(2), "ada", "Audit");
        assertThatThrownBy(() -> configurators.saveConfigurator(whole, renamed))
                .isInstanceOf(LockNotHeldException.class)
                .hasMessageContaining("Ada released your lock: Audit");

        Lock forged =
                new Lock(
                        LockKey.configurator(2),
                        LockKey.configurator(2),
                        LockMode.WRITE,
                        sara.ownerId(),
                        null,
                        "sara",
                        "Sara",
                        whole.acquiredAt(),
                        whole.renewedAt(),
                        whole.expiresAt(),
                        whole.fencingToken() + 1000);
        assertThatThrownBy(() -> configurators.saveConfigurator(forged, renamed))
                .isInstanceOf(LockNotHeldException.class);

        ConfiguratorDraft after = configurators.current(2).orElseThrow();
        assertThat(after.name()).isEqualTo(before.name());
        assertThat(after.version()).isEqualTo(before.version());
    }

    /**
     * Save, release and the saved draft's deletion are one transaction. A failure planted between
     * the write and the release (a trigger refusing the release's audit line) leaves the record as
     * it was, the lock held with its token and the draft kept, so Save can be pressed again; the
     * same save without it writes the rules, frees the record and drops the draft.
     */
    @Test
    void aSaveWritesReleasesAndDropsItsDraftTogetherOrNotAtAll() throws Exception {
        LockKey key = LockKey.itemFilters(10);
        String login = "omar"; // a draft belongs to a person of the user directory
        LockOwner me = new LockOwner(UUID.randomUUID().toString(), login, "Omar");
        FiltersDraft before = configurators.currentFilters(10).orElseThrow();
        List<String> typed = List.of("planted rule " + UUID.randomUUID());
        FiltersDraft changed =
                new FiltersDraft(
                        10,
                        before.itemName(),
                        before.configuratorId(),
                        before.configuratorName(),
                        typed);
        Lock held = locks.acquire(key, LockMode.WRITE, me, "tab-1");
        try {
            drafts.save(login, key, "{\"rules\":[]}", "{}");
            execute(
                    "create function planted_refuse_release() returns trigger language plpgsql as"
                            + " $$ begin raise exception 'planted: the release fails'; end $$");
            try {
                execute(
                        "create trigger planted_refuse_release before insert on lock_event for each"
                                + " row when (new.resource_key = 'item:10:filters' and"
                                + " new.event_type = 'RELEASED') execute function"
                                + " planted_refuse_release()");
                assertThatThrownBy(
                                () ->
                                        visits.saveAndRelease(
                                                held,
                                                "tab-1",
                                                login,
                                                key,
                                                () -> configurators.saveFilters(held, changed)))
                        .hasStackTraceContaining("planted: the release fails");
            } finally {
                execute("drop trigger if exists planted_refuse_release on lock_event");
                execute("drop function if exists planted_refuse_release()");
            }
            assertThat(configurators.currentFilters(10).orElseThrow().rules())
                    .as("the write was rolled back with the release")
                    .isEqualTo(before.rules());
            assertThat(locks.holder(key))
                    .as("the lock is still the saver's, with its token")
                    .map(Lock::fencingToken)
                    .hasValue(held.fencingToken());
            assertThat(drafts.find(login, key)).as("the draft is kept").isPresent();

            visits.saveAndRelease(
                    held, "tab-1", login, key, () -> configurators.saveFilters(held, changed));
            assertThat(configurators.currentFilters(10).orElseThrow().rules()).isEqualTo(typed);
            assertThat(locks.holder(key)).as("saved and released").isEmpty();
            assertThat(drafts.find(login, key)).as("the saved draft is gone").isEmpty();
            assertThat(locks.lastEnding(key))
                    .map(LockEvent::userLogin)
                    .as("released by the save, audited as a release")
                    .hasValue(login);

            Lock again = locks.acquire(key, LockMode.WRITE, me, "tab-1");
            configurators.saveFilters(again, before);
        } finally {
            locks.releaseAll(me.ownerId());
            drafts.delete(login, key);
        }
    }

    // ---- over HTTP ----

    @Test
    @RunAsClient
    void twoPeopleEditTwoItemsFiltersWhileTheWholeConfiguratorWaits() {
        Browser sara = api("sara");
        Browser omar = api("omar");
        Browser ada = api("ada");

        assertThat(lock(sara, "item:1:filters").statusCode()).isEqualTo(201);
        assertThat(lock(omar, "item:2:filters").statusCode()).isEqualTo(201);
        HttpResponse<String> refused = lock(ada, "configurator:1");
        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(json(refused.body()).getString("message")).contains("Sara").contains("Omar");
        assertThat(
                        json(refused.body()).getJsonArray("holders").stream()
                                .map(
                                        h ->
                                                h.asJsonObject()
                                                        .getJsonObject("holder")
                                                        .getString("name"))
                                .toList())
                .containsExactlyInAnyOrder("Sara", "Omar");

        assertThat(sara.delete("api/locks/item:1:filters").statusCode()).isEqualTo(204);
        assertThat(lock(ada, "configurator:1").statusCode())
                .as("Omar still holds item 2")
                .isEqualTo(409);
        assertThat(omar.delete("api/locks/item:2:filters").statusCode()).isEqualTo(204);
        assertThat(lock(ada, "configurator:1").statusCode()).isEqualTo(201);

        HttpResponse<String> saraAgain = lock(sara, "item:3:filters");
        assertThat(saraAgain.statusCode()).isEqualTo(409);
        assertThat(json(saraAgain.body()).getJsonObject("holder").getString("name"))
                .isEqualTo("Ada");
        assertThat(ada.delete("api/locks/configurator:1").statusCode()).isEqualTo(204);
    }

    @Test
    @RunAsClient
    void aStaleWriterIsRefusedTheOtherSaveStandsAndNothingTypedIsLost() {
        Browser sara = screen("sara");
        sara.get("configurator.xhtml?id=4");
        assertThat(sara.testId("lock-status")).contains("You are editing");

        assertThat(api("ada").delete("api/locks/configurator:4?reason=Quarter%20end").statusCode())
                .isEqualTo(204);

        Browser omar = screen("omar");
        omar.get("configurator.xhtml?id=4");
        assertThat(omar.testId("lock-status")).contains("You are editing");
        omar.submit("edit", Map.of("edit:name", "Savings by Omar"), "edit:save");
        assertThat(omar.page()).contains("Saved “Savings by Omar”");

        sara.submit(
                "edit",
                Map.of("edit:name", "Savings by Sara", "edit:description", "Sara's long notes"),
                "edit:save");
        assertThat(sara.page())
                .contains("Ada released your lock: Quarter end.")
                .contains("Nothing was saved");
        assertThat(sara.page())
                .as("her typed values stay in the form")
                .contains("value=\"Savings by Sara\"")
                .contains(">Sara's long notes</textarea>");
        assertThat(sara.testId("current-values"))
                .as("the current values beside them")
                .hasValueSatisfying(v -> assertThat(v).contains("Savings by Omar"));
        assertThat(json(api("omar").get("api/configurators/4").body()).getString("name"))
                .isEqualTo("Savings by Omar");
    }

    @Test
    @RunAsClient
    void theApiRefusesASaveWithoutTheLockAndChecksEveryField() {
        Browser sara = api("sara");
        JsonObject before = json(sara.get("api/configurators/3").body());
        String renamed =
                before.toString()
                        .replace(
                                "\"name\":\"" + before.getString("name") + "\"",
                                "\"name\":\"Laptop via API\"");

        HttpResponse<String> refused = sara.send("PUT", "api/configurators/3", renamed);
        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(json(refused.body()).getString("error"))
                .contains("not editing")
                .contains("nothing was saved");
        assertThat(json(sara.get("api/configurators/3").body())).isEqualTo(before);

        assertThat(lock(sara, "configurator:3").statusCode()).isEqualTo(201);
        String negative = renamed.replaceFirst("\"price\":[0-9.]+", "\"price\":-1");
        HttpResponse<String> invalid = sara.send("PUT", "api/configurators/3", negative);
        assertThat(invalid.statusCode()).isEqualTo(400);
        assertThat(
                        json(invalid.body())
                                .getJsonArray("problems")
                                .getJsonObject(0)
                                .getString("field"))
                .isEqualTo("items[0].price");
        assertThat(sara.send("PUT", "api/configurators/3", "{\"name\":").statusCode())
                .isEqualTo(400);
        assertThat(json(sara.get("api/configurators/3").body())).isEqualTo(before);

        HttpResponse<String> saved = sara.send("PUT", "api/configurators/3", renamed);
        assertThat(saved.statusCode()).as(saved.body()).isEqualTo(200);
        assertThat(json(saved.body()).getString("name")).isEqualTo("Laptop via API");
        assertThat(json(saved.body()).getJsonNumber("version").longValue())
                .isEqualTo(before.getJsonNumber("version").longValue() + 1);
        assertThat(sara.send("PUT", "api/configurators/3", renamed).statusCode())
                .as("a save from the old version is refused")
                .isEqualTo(409);
        assertThat(sara.delete("api/locks/configurator:3").statusCode()).isEqualTo(204);
    }

    @Test
    @RunAsClient
    void twoReadLocksSaveNothing() {
        Browser sara = api("sara");
        Browser omar = api("omar");
        JsonObject before = json(sara.get("api/configurators/2").body());
        String renamed =
                before.toString()
                        .replace(
                                "\"name\":\"" + before.getString("name") + "\"",
                                "\"name\":\"Written under a READ lock\"");
        assertThat(
                        sara.postJson(
                                        "api/locks",
                                        "{\"resource\":\"configurator:2\",\"mode\":\"READ\"}")
                                .statusCode())
                .isEqualTo(201);
        assertThat(
                        omar.postJson(
                                        "api/locks",
                                        "{\"resource\":\"configurator:2\",\"mode\":\"READ\"}")
                                .statusCode())
                .isEqualTo(201);

        for (Browser reader : List.of(sara, omar)) {
            HttpResponse<String> refused = reader.send("PUT", "api/configurators/2", renamed);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
            assertThat(json(refused.body()).getString("error"))
                    .contains("for reading only")
                    .contains("Open it for editing");
        }
        assertThat(json(sara.get("api/configurators/2").body())).isEqualTo(before);
        assertThat(sara.delete("api/locks/configurator:2").statusCode()).isEqualTo(204);
        assertThat(omar.delete("api/locks/configurator:2").statusCode()).isEqualTo(204);
    }

    @Test
    @RunAsClient
    void invalidInputIsShownNextToTheFieldAndNothingIsSaved() {
        Browser sara = screen("sara");
        long version =
                json(api("sara").get("api/configurators/3").body())
                        .getJsonNumber("version")
                        .longValue();
        sara.get("configurator.xhtml?id=3");
        sara.submit("edit", Map.of(), "edit:addVariable");
        sara.submit(
                "edit",
                Map.of(
                        "edit:name",
                        "",
                        "edit:description",
                        "x".repeat(2001),
                        "edit:items:0:price",
                        "-5",
                        "edit:variables:1:name",
                        "WARRANTYYEARS"),
                "edit:save");

        assertThat(sara.testId("lock-status")).contains("You are editing");
        assertNextTo(sara.page(), "edit:name", "The name is required.");
        assertNextTo(sara.page(), "edit:description", "can be at most 2000 characters");
        assertNextTo(sara.page(), "edit:items:0:price", "A price cannot be negative.");
        assertNextTo(sara.page(), "edit:variables:1:name", "There is already a variable named");
        assertThat(
                        json(api("sara").get("api/configurators/3").body())
                                .getJsonNumber("version")
                                .longValue())
                .isEqualTo(version);
        sara.submit("edit", Map.of(), "edit:done");
    }

    @Test
    @RunAsClient
    void itemsFiltersAndVariablesAreEditedOnTheirScreens() {
        Browser sara = screen("sara");
        sara.get("configurator.xhtml?id=1");
        sara.submit("edit", Map.of(), "edit:addItem");
        sara.submit(
                "edit",
                Map.of("edit:items:3:name", "Bell", "edit:items:3:price", "12.50"),
                "edit:addItem");
        sara.submit(
                "edit",
                Map.of("edit:items:4:name", "Lamp", "edit:items:4:price", "30"),
                "edit:items:4:remove");
        sara.submit("edit", Map.of(), "edit:items:3:up");
        sara.submit("edit", Map.of("edit:items:1:price", "475.00"), "edit:save");
        assertThat(sara.page()).contains("Saved");
        var items = json(api("sara").get("api/configurators/1").body()).getJsonArray("items");
        assertThat(items.stream().map(i -> i.asJsonObject().getString("name")).toList())
                .containsExactly("Frame", "Wheels", "Bell", "Saddle");
        assertThat(items.getJsonObject(1).getJsonNumber("price").bigDecimalValue())
                .isEqualByComparingTo("475");

        sara.get("filters.xhtml?id=2");
        assertThat(sara.testId("lock-status")).contains("You are editing");
        sara.submit("edit", Map.of(), "edit:addRule");
        sara.submit("edit", Map.of("edit:rules:1:rule", "weight < 2kg"), "edit:rules:1:up");
        sara.submit("edit", Map.of(), "edit:save");
        assertThat(sara.page()).contains("Saved “Filters of Wheels”");
        sara.get("filters.xhtml?id=2");
        assertThat(sara.page().indexOf("value=\"weight &lt; 2kg\""))
                .isPositive()
                .isLessThan(sara.page().indexOf("value=\"rim in (alloy, carbon)\""));
        sara.submit("edit", Map.of(), "edit:done");

        sara.get("variables.xhtml?id=1");
        sara.submit("edit", Map.of(), "edit:addVariable");
        sara.submit(
                "edit",
                Map.of("edit:variables:2:name", "colour", "edit:variables:2:value", "red"),
                "edit:save");
        assertThat(sara.page()).contains("Saved");
        assertThat(
                        json(api("sara").get("api/configurators/1").body())
                                .getJsonArray("variables")
                                .toString())
                .contains("\"name\":\"colour\"")
                .contains("\"value\":\"red\"");

        // A saved item with filter rules is removed again, rules and all.
        long bell = items.getJsonObject(2).getJsonNumber("id").longValue();
        sara.get("filters.xhtml?id=" + bell);
        sara.submit("edit", Map.of(), "edit:addRule");
        sara.submit("edit", Map.of("edit:rules:0:rule", "rider = 'commuter'"), "edit:save");
        sara.get("configurator.xhtml?id=1");
        sara.submit("edit", Map.of(), "edit:items:2:remove");
        sara.submit("edit", Map.of(), "edit:save");
        assertThat(
                        json(api("sara").get("api/configurators/1").body())
                                .getJsonArray("items")
                                .stream()
                                .map(i -> i.asJsonObject().getString("name"))
                                .toList())
                .containsExactly("Frame", "Wheels", "Saddle");
        assertThat(
                        api("sara")
                                .postJson(
                                        "api/locks", "{\"resource\":\"item:" + bell + ":filters\"}")
                                .statusCode())
                .as("the removed item is gone")
                .isEqualTo(404);
    }

    // ---- helpers ----

    private static void assertNextTo(String page, String inputId, String message) {
        Pattern nextTo =
                Pattern.compile(
                        "name=\""
                                + Pattern.quote(inputId)
                                + "\"[^>]*>([^<]*</textarea>)?\\s*"
                                + "<span class=\"error\">[^<]*"
                                + Pattern.quote(message));
        assertThat(nextTo.matcher(page).find()).as("“%s” next to %s", message, inputId).isTrue();
    }

    private Browser api(String user) {
        return new Browser(URI.create(base.toString())).basic(user, "demo");
    }

    private Browser screen(String user) {
        Browser browser = new Browser(URI.create(base.toString()));
        browser.login(user, "demo");
        return browser;
    }

    private static HttpResponse<String> lock(Browser who, String resource) {
        return who.postJson("api/locks", "{\"resource\":\"" + resource + "\"}");
    }

    private static JsonObject json(String body) {
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    private static void execute(String sql) throws Exception {
        DataSource ds = InitialContext.doLookup("java:app/jdbc/editlock");
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.execute();
        }
    }

    private static long scalar(String sql) throws Exception {
        DataSource ds = InitialContext.doLookup("java:app/jdbc/editlock");
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Replays grants and releases of {@code keys} since event {@code since}, in order; returns
     * every conflict.
     */
    private static List<String> conflictingGrants(long since, List<LockKey> keys) throws Exception {
        DataSource ds = InitialContext.doLookup("java:app/jdbc/editlock");
        Map<String, Map<String, String>> held = new HashMap<>(); // resource -> owner -> mode
        List<String> conflicts = new ArrayList<>();
        String aggregate = LockKey.configurator(2).toString();
        try (Connection c = ds.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select id, event_type, resource_key, mode, owner_id from lock_event where id > ?"
                                        + " and resource_key = any (?) order by id")) {
            ps.setLong(1, since);
            ps.setArray(
                    2, c.createArrayOf("varchar", keys.stream().map(LockKey::toString).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String type = rs.getString(2);
                    String key = rs.getString(3);
                    String mode = rs.getString(4);
                    String owner = rs.getString(5);
                    long id = rs.getLong(1);
                    if (type.equals("ACQUIRED") || type.equals("REACQUIRED")) {
                        held.forEach(
                                (otherKey, owners) ->
                                        owners.forEach(
                                                (otherOwner, otherMode) -> {
                                                    boolean overlap =
                                                            otherKey.equals(key)
                                                                    || otherKey.equals(aggregate)
                                                                    || key.equals(aggregate);
                                                    boolean exclusive =
                                                            mode.equals("WRITE")
                                                                    || otherMode.equals("WRITE");
                                                    if (!otherOwner.equals(owner)
                                                            && overlap
                                                            && exclusive) {
                                                        conflicts.add(
                                                                "event "
                                                                        + id
                                                                        + ": "
                                                                        + key
                                                                        + " "
                                                                        + mode
                                                                        + " granted while "
                                                                        + otherKey
                                                                        + " "
                                                                        + otherMode
                                                                        + " was held");
                                                    }
                                                }));
                        held.computeIfAbsent(key, k -> new HashMap<>()).put(owner, mode);
                    } else if (!type.equals("DENIED") && !type.equals("RENEWED_AFTER_LAPSE")) {
                        held.getOrDefault(key, new HashMap<>()).remove(owner);
                    }
                }
            }
        }
        return conflicts;
    }
}
