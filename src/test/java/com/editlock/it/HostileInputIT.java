package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.editlock.it.HostileApiCatalogue.Case;
import com.editlock.it.HostileApiCatalogue.Session;
import com.editlock.it.browser.Browser;
import com.editlock.it.browser.PageStream;
import com.editlock.it.node.Deployments;
import com.editlock.it.node.LoopbackHttp;
import com.editlock.it.node.NodeHeap;
import com.editlock.it.node.TestDatabase;
import com.editlock.it.node.TestSettings;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The hostile-input catalogue: every case is one request an attacker, a broken script or a confused
 * user could send. For each: the status, a sentence that says what was wrong, never a 5xx or the
 * server's own error page, and {@code app_lock}, the configurator tables and the history (refusals
 * apart) exactly as before. docs/security.md lists every case in one line.
 *
 * <p>Sara holds configurator:1 and Omar configurator:2 (both through the API) for the whole
 * catalogue; each case runs after Sara's and Omar's heartbeats, so their leases cannot lapse
 * between the "before" and the "after".
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class HostileInputIT {

    private static final String EVIL = HostileApiCatalogue.EVIL;

    @Deployment(testable = false)
    public static WebArchive deployment() {
        return Deployments.editlock();
    }

    @ArquillianResource URL base;

    private final HttpClient http =
            HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
    private Session sara;
    private Session omar;
    private Session ada;

    /** The catalogue's session of {@code login} (made when the first case runs). */
    private Session session(String login) {
        return switch (login) {
            case "sara" -> sara;
            case "omar" -> omar;
            default -> ada;
        };
    }

    /**
     * Arquillian injects {@code base} per test, so the sessions are made when the first case runs.
     */
    private void sessions() {
        if (sara != null && alive(sara) && alive(omar) && alive(ada)) {
            return;
        }
        // First case, or the sessions timed out (10 s in the tests) while a long test of this
        // class ran in between: the cases start again from fresh sessions.
        release();
        try {
            // Hand-overs asked by another test class within the last ten minutes would count
            // against the catalogue's own asks (three per record): the catalogue starts without.
            sql("delete from handover_request");
        } catch (Exception e) {
            throw new AssertionError("could not clear earlier hand-over requests", e);
        }
        sara = login("sara");
        omar = login("omar");
        ada = login("ada");
        assertThat(
                        send(
                                        sara,
                                        "POST",
                                        "api/locks",
                                        HostileApiCatalogue.json(),
                                        "{\"resource\":\"configurator:1\"}")
                                .statusCode())
                .isEqualTo(201);
        assertThat(
                        send(
                                        omar,
                                        "POST",
                                        "api/locks",
                                        HostileApiCatalogue.json(),
                                        "{\"resource\":\"configurator:2\"}")
                                .statusCode())
                .isEqualTo(201);
        // Whatever earlier tests left (a lapsing lease, a session about to time out) must not
        // change the state
        // while a case runs: release everything but Sara's and Omar's.
        for (var lock :
                jakarta.json.Json.createReader(
                                new java.io.StringReader(
                                        send(ada, "GET", "api/locks?limit=500", Map.of(), null)
                                                .body()))
                        .readArray()) {
            String resource = lock.asJsonObject().getString("resource");
            if (!resource.equals("configurator:1") && !resource.equals("configurator:2")) {
                send(
                        ada,
                        "DELETE",
                        "api/locks/" + resource + "?reason=catalogue%20set-up",
                        Map.of(),
                        null);
            }
        }
    }

    /** Whether {@code s} is still logged in (a beat keeps it so). */
    private boolean alive(Session s) {
        return send(s, "POST", "api/locks/heartbeat", Map.of(), null).statusCode() == 204;
    }

    @AfterAll
    void release() {
        for (Session s : new Session[] {sara, omar, ada}) {
            if (s != null) {
                send(s, "POST", "api/logout", Map.of(), null);
            }
        }
        sara = null;
        omar = null;
        ada = null;
    }

    @TestFactory
    Stream<DynamicTest> catalogue() {
        List<Case> cases = new HostileApiCatalogue(this::session).cases();
        assertThat(cases).as("the catalogue has at least 60 cases").hasSizeGreaterThanOrEqualTo(60);
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> run(c)));
    }

    private void run(Case c) throws Exception {
        heartbeats();
        Map<String, String> before = state();
        HttpResponse<String> r =
                send(
                        c.as() == null ? null : c.as().get(),
                        c.method(),
                        c.path(),
                        c.headers(),
                        c.body());
        assertThat(r.statusCode()).as("%s → %s", c.name(), r.body()).isEqualTo(c.status());
        assertThat(r.body())
                .as("a sentence that says what was wrong")
                .containsIgnoringCase(c.says());
        assertThat(r.body())
                .as("never the server's own page")
                .doesNotContainIgnoringCase("payara")
                .doesNotContain("Exception")
                .doesNotContain("at com.");
        assertThat(r.headers().firstValue("Server")).as("no product banner").isEmpty();
        assertThat(state()).as("nothing changed").isEqualTo(before);
    }

    // ---- the screens: the same promises through Faces forms ----

    /** A screen case: a fresh browser session is set up (not judged), then one form post is. */
    private record ScreenCase(
            String name,
            String user,
            String page,
            String form,
            Map<String, String> fields,
            String button,
            int status,
            String says) {}

    @TestFactory
    Stream<DynamicTest> screens() {
        return Stream.of(
                        new ScreenCase(
                                "screen: NUL in a configurator name",
                                "omar",
                                "configurator.xhtml?id=3",
                                "edit",
                                Map.of("edit:name", "a\u0000b"),
                                "edit:save",
                                200,
                                "This field contains a control character (U+0000) at position 2; remove it."),
                        new ScreenCase(
                                "screen: broken character in a description",
                                "omar",
                                "configurator.xhtml?id=3",
                                "edit",
                                Map.of("edit:description", "x\u0085y"),
                                "edit:save",
                                200,
                                "This field contains a control character (U+0085) at position 2; remove it."),
                        new ScreenCase(
                                "screen: forged view state",
                                "omar",
                                "configurator.xhtml?id=3",
                                "edit",
                                Map.of(
                                        "jakarta.faces.ViewState",
                                        "-1:forged",
                                        "edit:name",
                                        "Forged"),
                                "edit:save",
                                400,
                                "This page has expired"),
                        new ScreenCase(
                                "screen: NUL in the dashboard's holder filter",
                                "ada",
                                "admin/locks.xhtml",
                                "filter",
                                Map.of("filter:user", "s\u0000"),
                                "filter:apply",
                                200,
                                "This field contains a control character (U+0000) at position 2; remove it."),
                        new ScreenCase(
                                "screen: SQL in the dashboard's holder filter",
                                "ada",
                                "admin/locks.xhtml",
                                "filter",
                                Map.of("filter:user", "%' or 1=1 --"),
                                "filter:apply",
                                200,
                                "Held now: "),
                        new ScreenCase(
                                "screen: minutes beyond a year in the dashboard's age filter",
                                "ada",
                                "admin/locks.xhtml",
                                "filter",
                                Map.of("filter:age", "99999999999"),
                                "filter:apply",
                                200,
                                "Type a whole number of minutes."),
                        new ScreenCase(
                                "screen: NUL in the login name",
                                null,
                                "login.xhtml",
                                "login",
                                Map.of("login:username", "a\u0000", "login:password", "x"),
                                "login:submit",
                                200,
                                "This field contains a control character (U+0000) at position 2; remove it."))
                .map(c -> DynamicTest.dynamicTest(c.name(), () -> screen(c)));
    }

    @TestFactory
    Stream<DynamicTest> screenAddresses() {
        return Stream.of(
                DynamicTest.dynamicTest(
                        "screen: unknown id",
                        () -> {
                            heartbeats();
                            Map<String, String> before = state();
                            Browser omarScreen = new Browser(URI.create(base.toString()));
                            omarScreen.login("omar", "demo");
                            HttpResponse<String> r =
                                    omarScreen.get("configurator.xhtml?id=99999999999999999999");
                            assertThat(r.statusCode()).as(r.body()).isEqualTo(404);
                            assertThat(r.body())
                                    .contains("There is no such record. Pick one from the list.");
                            omarScreen.post("api/logout");
                            assertThat(state()).isEqualTo(before);
                        }));
    }

    private void screen(ScreenCase c) throws Exception {
        Browser browser = new Browser(URI.create(base.toString()));
        if (c.user() != null) {
            browser.login(c.user(), "demo");
        }
        browser.get(c.page());
        assertThat(browser.page()).as("the form to post").contains("id=\"" + c.form() + "\"");
        try {
            heartbeats();
            Map<String, String> before = state();
            HttpResponse<String> r = browser.submit(c.form(), c.fields(), c.button());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(c.status());
            assertThat(r.body()).contains(c.says()).doesNotContainIgnoringCase("payara");
            assertThat(state()).isEqualTo(before);
        } finally {
            browser.post("api/logout");
        }
    }

    // ---- headers, cookie, logins ----

    @org.junit.jupiter.api.Test
    void everyAnswerCarriesTheSecurityHeadersAndTheSessionCookieIsHttpOnlyAndSameSiteLax() {
        HttpResponse<String> page = send(null, "GET", "login.xhtml", Map.of(), null);
        String csp = page.headers().firstValue("Content-Security-Policy").orElseThrow();
        java.util.regex.Matcher nonce =
                java.util.regex.Pattern.compile("'nonce-([^']+)'").matcher(csp);
        assertThat(nonce.find()).as(csp).isTrue();
        assertThat(csp)
                .contains("default-src 'self'")
                .contains("script-src 'self' 'nonce-")
                .contains("frame-ancestors 'none'")
                .contains("object-src 'none'")
                .doesNotContain("unsafe");
        assertThat(page.body())
                .as("no inline script without this answer's nonce")
                .doesNotContainPattern(
                        "<script(?![^>]*nonce=\""
                                + java.util.regex.Pattern.quote(nonce.group(1))
                                + "\")")
                .doesNotContainPattern(" on[a-z]+=\"");
        for (HttpResponse<String> r :
                List.of(
                        page,
                        send(
                                null,
                                "GET",
                                "api/locks",
                                Map.of("Authorization", HostileApiCatalogue.basic("sara", "demo")),
                                null))) {
            assertThat(r.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
            assertThat(r.headers().firstValue("X-Frame-Options")).contains("DENY");
            assertThat(r.headers().firstValue("Referrer-Policy")).contains("same-origin");
            assertThat(r.headers().firstValue("Server")).isEmpty();
            assertThat(r.headers().firstValue("X-Powered-By")).isEmpty();
        }
        HttpResponse<String> api =
                send(
                        null,
                        "GET",
                        "api/locks",
                        Map.of("Authorization", HostileApiCatalogue.basic("sara", "demo")),
                        null);
        assertThat(api.headers().firstValue("Cache-Control")).contains("no-store");
        String cookie =
                api.headers().allValues("Set-Cookie").stream()
                        .filter(c -> c.startsWith("JSESSIONID="))
                        .findFirst()
                        .orElseThrow();
        assertThat(cookie).contains("HttpOnly").contains("SameSite=Lax");
        send(
                new Session(cookie.substring(0, cookie.indexOf(';'))),
                "POST",
                "api/logout",
                Map.of(),
                null);

        HttpResponse<String> background =
                send(
                        null,
                        "POST",
                        "api/locks/heartbeat",
                        Map.of("Sec-Fetch-Mode", "cors", "Sec-Fetch-Site", "same-origin"),
                        null);
        assertThat(background.statusCode()).isEqualTo(401);
        assertThat(background.headers().firstValue("WWW-Authenticate").orElseThrow())
                .as("no password prompt over a page")
                .doesNotStartWithIgnoringCase("Basic");
        HttpResponse<String> script = send(null, "GET", "api/locks", Map.of(), null);
        assertThat(script.headers().firstValue("WWW-Authenticate").orElseThrow())
                .startsWith("Basic");
    }

    // ---- the live stream ----

    @org.junit.jupiter.api.Test
    void theLiveStreamCarriesOnlyItsOwnSessionsTabsAndEndsAtOnceForAnyoneElse() throws Exception {
        java.net.URI at = java.net.URI.create(base.toString());
        Browser sara = new Browser(at);
        sara.login("sara", "demo");
        sara.get("configurators.xhtml");
        java.net.URI mine = sara.liveAddress().orElseThrow();
        try (PageStream own = sara.openStream(m -> {})) {
            assertThat(own.status()).isEqualTo(200);
            assertThat(own.header("content-type")).startsWith("text/event-stream");
            assertThat(own.header("cache-control")).isEqualTo("no-cache");
            assertThat(own.header("x-accel-buffering")).isEqualTo("no");
            await("the stream stays open, kept alive")
                    .during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(3))
                    .until(() -> !own.endedByServer());
        }
        // HEAD: the same headers, no stream; the answer ends at once (Connection: close)
        try (java.net.Socket head = new java.net.Socket(at.getHost(), at.getPort())) {
            head.getOutputStream()
                    .write(
                            ("HEAD "
                                            + mine.getRawPath()
                                            + "?"
                                            + mine.getRawQuery()
                                            + " HTTP/1.1\r\nHost: "
                                            + at.getAuthority()
                                            + "\r\nConnection: close\r\nCookie: "
                                            + sara.cookieHeader().orElseThrow()
                                            + "\r\n\r\n")
                                    .getBytes(StandardCharsets.US_ASCII));
            String answer =
                    new String(
                            readToTheEnd(head, Duration.ofSeconds(3)), StandardCharsets.US_ASCII);
            assertThat(answer).startsWith("HTTP/1.1 200").contains("text/event-stream");
            assertThat(answer.substring(answer.indexOf("\r\n\r\n") + 4))
                    .as("a HEAD's answer has no body")
                    .isEmpty();
        }

        Browser omar = new Browser(at);
        omar.login("omar", "demo");
        omar.get("configurators.xhtml");
        String omarsCookie = omar.cookieHeader().orElseThrow();
        try (PageStream his =
                PageStream.open(
                        omar.liveAddress().orElseThrow(),
                        omarsCookie,
                        Duration.ofSeconds(5),
                        m -> {})) {
            await("the same cookie keeps Omar's own page's stream open: it is his session")
                    .during(Duration.ofSeconds(1))
                    .atMost(Duration.ofSeconds(2))
                    .until(() -> !his.endedByServer());
        }
        for (String cookie : java.util.Arrays.asList(omarsCookie, null)) { // another user; nobody
            try (PageStream stranger =
                    PageStream.open(mine, cookie, Duration.ofSeconds(5), m -> {})) {
                assertThat(stranger.status()).isEqualTo(200);
                await("a stranger's stream is told the tab is unknown and ended")
                        .atMost(Duration.ofSeconds(3))
                        .until(stranger::endedByServer);
                assertThat(stranger.messages())
                        .singleElement()
                        .asString()
                        .contains("\"type\":\"unknown\"");
            }
        }
        for (String tabs :
                List.of(
                        "",
                        "not-a-token",
                        "a,b",
                        String.join(
                                ",",
                                java.util.Collections.nCopies(
                                        65, java.util.UUID.randomUUID().toString())))) {
            HttpResponse<String> bad =
                    send(
                            new Session("JSESSIONID=" + sara.sessionId().orElseThrow()),
                            "GET",
                            "live?tabs=" + tabs,
                            Map.of(),
                            null);
            assertThat(bad.statusCode()).as(tabs).isEqualTo(400);
            assertThat(bad.body()).as(tabs).contains("tabs by their page");
        }
    }

    /**
     * A session's end ends its streams: logging out tells each open page that it gets no more news,
     * and the node ends the stream (before, it went on with keep-alives for a client that kept
     * reading, tabs or no tabs).
     */
    @org.junit.jupiter.api.Test
    void loggingOutEndsTheSessionsStreams() throws Exception {
        Browser sara = new Browser(URI.create(base.toString()));
        sara.login("sara", "demo");
        sara.get("configurators.xhtml");
        try (PageStream own = sara.openStream(m -> {})) {
            assertThat(own.status()).isEqualTo(200);
            assertThat(sara.post("api/logout").statusCode()).isEqualTo(204);
            await("the logged-out session's stream is ended")
                    .atMost(Duration.ofSeconds(3))
                    .until(own::endedByServer);
            assertThat(own.messages())
                    .anySatisfy(m -> assertThat(m).contains("\"type\":\"unknown\""));
        }
    }

    /** How long the unread stream's test makes lock traffic. */
    private static final Duration FLOOD = Duration.ofSeconds(30);

    /**
     * How much longer the traffic may go on until the node has judged the unread stream's client
     * gone and its edit page's record is free: what fills the connection's buffers (the kernel's,
     * which grows to a few MB, and the container's 256 KB queue), the stall of 5 s and the tab
     * grace.
     */
    private static final Duration FILLED_AND_STALLED = Duration.ofSeconds(60);

    /**
     * How long a write of the node waits for a client that takes nothing before it gives up ({@code
     * write-timeout-millis} in the pre-boot file): a stream's held write, then its completion.
     */
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(10);

    /** The name of the node's threads that write to a stream whose client does not keep up. */
    private static final String HELD_WRITE = "editlock-live-held-write-";

    /**
     * A stream whose client keeps the connection and reads nothing (a script, a frozen tab): 63 of
     * Sara's list tabs and her edit page on one stream that is never read, while Omar takes and
     * gives back a record through the API for 30 s, every change news for each of those tabs. The
     * node goes on telling everyone else: Ada's open list hears the next change within a second;
     * what the node's heap holds after the 30 s is within 4 MB of before (the probe that found it:
     * 150 → 309 MB in about 20 s); and once the client's buffers are full, the node judges it gone
     * within {@code LiveStreams.STALL_MILLIS} (5 s): its tabs are closed tabs, so Sara's record is
     * free a tab grace later; no thread of the node waits for the client within twice the write
     * time-out (the held write, then the completion; at Payara's default of 30 s this fails); and
     * the stream ends once the client reads what was queued.
     */
    @org.junit.jupiter.api.Test
    void anUnreadStreamHoldsNoOneBackAndCannotGrowTheHeap() throws Exception {
        URI at = URI.create(base.toString());
        Browser sara = new Browser(at);
        sara.login("sara", "demo");
        List<String> tabs = new java.util.ArrayList<>();
        for (int i = 0; i < 63; i++) {
            sara.get("configurators.xhtml");
            tabs.add(sara.viewToken().orElseThrow());
        }
        long edited = TestDatabase.newConfigurator("Unread stream");
        assertThat(sara.get("configurator.xhtml?id=" + edited).statusCode()).isEqualTo(200);
        assertThat(sara.page()).contains("data-editing=\"true\"");
        tabs.add(sara.viewToken().orElseThrow());
        Browser ada = new Browser(at);
        ada.login("ada", "demo");
        ada.get("configurators.xhtml");
        Session omar = login("omar");
        String key = "configurator:3";
        NodeHeap node = NodeHeap.listeningOn(at.getPort());
        long before = node.usedAfterGc();

        try (java.net.Socket unread =
                        PageStream.openUnread(at, sara.cookieHeader().orElseThrow(), tabs, null);
                PageStream adas = ada.openStream(m -> {})) {
            long start = System.nanoTime();
            long end = start + FLOOD.toNanos();
            long limit = end + FILLED_AND_STALLED.toNanos();
            int changes = 0;
            long beat = 0;
            long looked = 0;
            long freedAfter = -1;
            long flooded = -1;
            while (true) {
                long now = System.nanoTime();
                if (now >= end && flooded < 0) {
                    flooded = node.usedAfterGc(); // the heap after 30 s of traffic
                }
                if (now >= end && (freedAfter >= 0 || now >= limit)) {
                    break; // the traffic goes on until the node judged the client gone
                }
                if (now - beat > 3_000_000_000L) { // both users stay active
                    beat = now;
                    assertThat(sara.post("api/locks/heartbeat").statusCode()).isEqualTo(204);
                    assertThat(ada.post("api/locks/heartbeat").statusCode()).isEqualTo(204);
                }
                if (freedAfter < 0 && now - looked > 250_000_000L) {
                    looked = now;
                    if (send(omar, "GET", "api/locks/configurator:" + edited, Map.of(), null)
                                    .statusCode()
                            == 404) {
                        freedAfter = (looked - start) / 1_000_000;
                    }
                }
                take(omar, key);
                giveBack(omar, key);
                changes += 2;
            }
            assertThat(freedAfter)
                    .as(
                            "Sara's record, open in a tab of the unread stream, freed within %s of"
                                    + " traffic",
                            FLOOD.plus(FILLED_AND_STALLED))
                    .isNotNegative();
            long stopped = System.nanoTime();
            await("no thread of the node waits for the client that takes nothing")
                    .atMost(WRITE_TIMEOUT.multipliedBy(2))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> !node.threadDump().contains(HELD_WRITE));
            long letGoAfter = (System.nanoTime() - stopped) / 1_000_000;
            // what the kernel still holds for it; a proxy cuts such a client (ProxyIT), a node
            // cannot: Grizzly closes a connection only once what it queued for it is sent
            String side = node.sideOf(unread).replaceAll("\\s+", " ");
            int left = readToTheEnd(unread, Duration.ofSeconds(10)).length; // then it ends

            int heard = adas.messages().size();
            take(omar, key);
            long told = System.nanoTime();
            await("Ada's open list hears of the last change")
                    .atMost(Duration.ofSeconds(1))
                    .until(() -> adas.messages().size() > heard);
            long heardAfter = (System.nanoTime() - told) / 1_000_000;
            giveBack(omar, key);

            assertThat(flooded - before)
                    .as("what 30 s of lock traffic left on the heap beside an unread stream, bytes")
                    .isLessThan(4L * 1024 * 1024);
            System.out.printf(
                    "Unread stream of 64 tabs: %,d lock changes; node heap after a full GC %,d KB"
                            + " before, %,d KB after %d s (%+,d KB); another user's list heard"
                            + " the next change in %,d ms; the edit page's record was free %,d ms"
                            + " into the traffic; no thread waited for it %,d ms after the traffic;"
                            + " its connection (node side: %s) ended once read, after %,d KB%n",
                    changes,
                    before / 1024,
                    flooded / 1024,
                    FLOOD.toSeconds(),
                    (flooded - before) / 1024,
                    heardAfter,
                    freedAfter,
                    letGoAfter,
                    side,
                    left / 1024);
        }
    }

    /**
     * A page's failed postbacks cannot grow what its session keeps. A field longer than any page
     * takes ({@code BodyReads.PAGE_FIELD_MAX_CHARS}) is refused before Faces sees it: 16 postbacks
     * of a 200 KB description on each of 8 editing pages are answered {@code 400} without the field
     * echoed, and leave the node's heap within 4 MB of before (the probe that found it: ~4.7 MB per
     * page; on these paths the old code kept +1.9 MB for the 128). A page keeps its 3 newest
     * states: a post from the third newest still works, one from the fourth is answered "This page
     * has expired" with what was typed; the longest description a page takes (2,000 characters,
     * line breaks sent as two) goes through.
     */
    @org.junit.jupiter.api.Test
    void failedPostbacksCannotGrowWhatAPageKeeps() throws Exception {
        URI at = URI.create(base.toString());
        Browser sara = new Browser(at);
        sara.login("sara", "demo");
        List<Long> pages = new java.util.ArrayList<>();
        for (int i = 0; i < 9; i++) {
            pages.add(TestDatabase.newConfigurator("Stuffed " + i));
        }
        String huge = "d".repeat(200 * 1024);
        stuff(sara, pages.get(8), huge); // warm-up: the first refusals' buffers grow once
        NodeHeap node = NodeHeap.listeningOn(at.getPort());
        long before = node.usedAfterGc();
        for (long page : pages.subList(0, 8)) {
            stuff(sara, page, huge);
        }
        long stuffed = node.usedAfterGc();
        assertThat(stuffed - before)
                .as("what 128 failed postbacks of 200 KB fields left on the heap, bytes")
                .isLessThan(4L * 1024 * 1024);

        sara.get("configurator.xhtml?id=" + pages.get(0));
        List<String> states = new java.util.ArrayList<>(List.of(sara.viewState()));
        for (int i = 0; i < 3; i++) { // three full postbacks that keep editing
            assertThat(sara.submit("edit", Map.of(), "edit:addItem").statusCode()).isEqualTo(200);
            states.add(sara.viewState());
        }
        assertThat(states).doesNotHaveDuplicates();
        HttpResponse<String> third =
                sara.submitKeepingPage(
                        "edit", Map.of("jakarta.faces.ViewState", states.get(1)), "edit:addItem");
        assertThat(third.statusCode()).as("a post from the third newest state").isEqualTo(200);
        assertThat(third.body()).contains("data-editing=\"true\"");
        HttpResponse<String> fourth =
                sara.submitKeepingPage(
                        "edit",
                        Map.of(
                                "jakarta.faces.ViewState",
                                states.get(0),
                                "edit:name",
                                "Typed before it expired"),
                        "edit:addItem");
        assertThat(fourth.statusCode()).as("a post from the fourth newest state").isEqualTo(400);
        assertThat(fourth.body()).contains("This page has expired", "Typed before it expired");

        String longest = ("x".repeat(98) + "\r\n").repeat(20);
        assertThat(longest).hasSize(2000);
        sara.get("configurator.xhtml?id=" + pages.get(1));
        HttpResponse<String> saved =
                sara.submit("edit", Map.of("edit:description", longest), "edit:save");
        assertThat(saved.statusCode()).isEqualTo(200);
        assertThat(
                        send(
                                        login("omar"),
                                        "GET",
                                        "api/configurators/" + pages.get(1),
                                        Map.of(),
                                        null)
                                .body())
                .as("the longest description a page takes was saved")
                .contains("x".repeat(98));
        System.out.printf(
                "128 failed postbacks of 200 KB fields on 8 pages: node heap after a full GC %,d KB"
                        + " before, %,d KB after (%+,d KB)%n",
                before / 1024, stuffed / 1024, (stuffed - before) / 1024);
    }

    /** Sixteen postbacks of {@code huge} as the description of configurator {@code id}'s page. */
    private static void stuff(Browser sara, long id, String huge) {
        assertThat(sara.get("configurator.xhtml?id=" + id).statusCode()).isEqualTo(200);
        assertThat(sara.page()).contains("data-editing=\"true\"");
        for (int i = 0; i < 16; i++) {
            HttpResponse<String> r =
                    sara.submitKeepingPage(
                            "edit",
                            Map.of("edit:description", huge + i),
                            i % 2 == 0 ? "edit:save" : "edit:addItem");
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(r.body())
                    .contains("longer than any field Editlock takes (4000 characters)")
                    .hasSizeLessThan(20_000);
        }
    }

    /**
     * A script that retries a refused lock in a loop writes one history row a minute, with the
     * count, not one a try: 500 refusals of Sara's lock request (Omar holds the record) leave one
     * {@code DENIED} row with {@code repeats} 499, which the history API shows.
     */
    @org.junit.jupiter.api.Test
    void aRefusalRepeatedInALoopIsAuditedOnceWithItsCount() throws Exception {
        String key = "configurator:" + TestDatabase.newConfigurator("Refused in a loop");
        Session holder = login("omar");
        Session script = login("sara");
        take(holder, key);
        String body = "{\"resource\":\"" + key + "\"}";
        long start = System.nanoTime();
        for (int i = 0; i < 500; i++) {
            if (i % 100 == 0) { // the holder's session stays (10 s without a sign ends it here)
                assertThat(send(holder, "POST", "api/locks/heartbeat", Map.of(), null).statusCode())
                        .isEqualTo(204);
            }
            assertThat(
                            send(script, "POST", "api/locks", HostileApiCatalogue.json(), body)
                                    .statusCode())
                    .isEqualTo(409);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        List<Integer> rows = new java.util.ArrayList<>();
        try (Connection c = TestDatabase.connect();
                var ps =
                        c.prepareStatement(
                                "select repeats from lock_event where resource_key = ?"
                                        + " and event_type = 'DENIED'")) {
            ps.setString(1, key);
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(rs.getInt(1));
                }
            }
        }
        assertThat(rows).as("one row, counting the 499 repeats").containsExactly(499);
        HttpResponse<String> history =
                send(login("ada"), "GET", "api/locks/events?resource=" + key, Map.of(), null);
        assertThat(history.statusCode()).isEqualTo(200);
        assertThat(history.body()).contains("\"type\":\"DENIED\"").contains("\"repeats\":499");
        Browser admin = new Browser(URI.create(base.toString()));
        admin.login("ada", "demo");
        admin.get("admin/history.xhtml");
        admin.submit("filter", Map.of("filter:resource", key), "filter:apply");
        assertThat(admin.page())
                .as("the history screen")
                .contains(
                        "Sara could not edit it: someone else was editing, and 499 times more within a minute");
        giveBack(holder, key);
        System.out.printf(
                "500 refusals in %,d ms: %d history row (before: one row each)%n",
                millis, rows.size());
    }

    /**
     * A heartbeat may name a few tabs that are not its session's open pages (a page that closed a
     * moment ago): up to {@code MAX_FOREIGN_BEAT_TABS} (8) are left out, the beat renews the rest
     * ({@code 204}), and {@code /metrics} counts them ({@code heartbeat_foreign_tabs}); nine refuse
     * the beat (case 138).
     */
    @org.junit.jupiter.api.Test
    void aBeatNamingEightTabsNotItsOwnRenewsItsOwnAndCountsTheEight() throws Exception {
        URI at = URI.create(base.toString());
        Browser sara = new Browser(at);
        sara.login("sara", "demo");
        long record = TestDatabase.newConfigurator("Beaten with strangers");
        sara.get("configurator.xhtml?id=" + record);
        assertThat(sara.page()).contains("data-editing=\"true\"");
        String own = sara.viewToken().orElseThrow();
        Browser monitor = new Browser(at.resolve("/"));
        double before = foreignTabs(monitor);
        StringBuilder beat = new StringBuilder("api/locks/heartbeat?view=").append(own);
        for (int i = 0; i < 8; i++) {
            beat.append("&view=").append(java.util.UUID.randomUUID());
        }
        assertThat(sara.post(beat.toString()).statusCode()).isEqualTo(204);
        assertThat(foreignTabs(monitor) - before).as("the 8 left out, counted").isEqualTo(8.0);
        assertThat(sara.peek("api/locks/configurator:" + record).body())
                .as("her own tab's lock is still hers")
                .contains("\"user\":\"sara\"");
    }

    /** The node's {@code heartbeat_foreign_tabs} counter (0 before its first count). */
    private static double foreignTabs(Browser monitor) {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile(
                                "(?m)^heartbeat_foreign_tabs(?:_total)?\\{[^}]*\\} ([0-9.eE+]+)$")
                        .matcher(monitor.get("metrics").body());
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /**
     * A user's device cookies are kept for 90 days and the newest 20: logging in on the screen
     * (which issues one more) prunes the rest of that user's, so no one can fill the table by
     * logging in again and again.
     */
    @org.junit.jupiter.api.Test
    void aLoginKeepsAUsersNewestTwentyDevicesWithinNinetyDays() throws Exception {
        String login = "devices" + System.nanoTime() % 1_000_000;
        addUser(login, "editor");
        java.security.SecureRandom random = new java.security.SecureRandom();
        for (int i = 0; i < 24; i++) { // one 91 days old, the others 1 to 23 days
            byte[] hash = new byte[32];
            random.nextBytes(hash);
            sql(
                    "insert into login_device (token_hash, login, issued_at)"
                            + " values (?, ?, now() - make_interval(days => ?))",
                    hash,
                    login,
                    i == 0 ? 91 : i);
        }
        Browser browser = new Browser(URI.create(base.toString()));
        assertThat(browser.login(login, "right-password").statusCode()).isEqualTo(200);
        assertThat(browser.page()).contains("Temp " + login);
        try (Connection c = TestDatabase.connect();
                var ps =
                        c.prepareStatement(
                                "select count(*), min(issued_at) > now() - interval '90 days',"
                                        + " max(issued_at) > now() - interval '1 minute'"
                                        + " from login_device where login = ?")) {
            ps.setString(1, login);
            try (var rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getInt(1)).as("the newest 20 are kept").isEqualTo(20);
                assertThat(rs.getBoolean(2)).as("none older than 90 days").isTrue();
                assertThat(rs.getBoolean(3)).as("the one just issued among them").isTrue();
            }
        }
    }

    private void take(Session as, String key) {
        assertThat(
                        send(
                                        as,
                                        "POST",
                                        "api/locks",
                                        HostileApiCatalogue.json(),
                                        "{\"resource\":\"" + key + "\"}")
                                .statusCode())
                .isEqualTo(201);
    }

    private void giveBack(Session as, String key) {
        assertThat(send(as, "DELETE", "api/locks/" + key, Map.of(), null).statusCode())
                .isEqualTo(204);
    }

    /**
     * Everything {@code socket} still brings until the server closes it; fails when it is still
     * open after {@code within} (a stream the server holds open goes on with keep-alives).
     */
    private static byte[] readToTheEnd(java.net.Socket socket, Duration within)
            throws java.io.IOException {
        socket.setSoTimeout(1000);
        java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[65536];
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            assertThat(System.nanoTime())
                    .as("the node ended the unread stream within %s", within)
                    .isLessThan(deadline);
            try {
                int n = socket.getInputStream().read(buffer);
                if (n < 0) {
                    return got.toByteArray();
                }
                got.write(buffer, 0, n);
            } catch (java.net.SocketTimeoutException e) {
                // nothing this second: look at the deadline again
            }
        }
    }

    /**
     * Sessions travel in cookies only: a session id in the address ({@code ;jsessionid=}, which
     * leaks through logs and Referer and lets a session be fixed on a victim) is refused on pages,
     * the API and the live stream, before the session is touched; the cookie goes on working.
     */
    @org.junit.jupiter.api.Test
    void aSessionIdInTheAddressIsRefusedOnPagesTheApiAndTheLiveStream() {
        Session own = login("omar");
        String id = own.cookie().substring(own.cookie().indexOf('=') + 1);
        for (String path :
                List.of(
                        "api/locks;jsessionid=" + id,
                        "configurators.xhtml;jsessionid=" + id,
                        "live;jsessionid=" + id + "?tabs=" + java.util.UUID.randomUUID())) {
            HttpResponse<String> r = send(null, "GET", path, Map.of(), null);
            assertThat(r.statusCode()).as(path).isEqualTo(400);
            assertThat(r.body()).as(path).contains("cookie only");
            assertThat(r.headers().firstValue("Set-Cookie")).as(path).isEmpty();
        }
        assertThat(send(own, "GET", "api/locks", Map.of(), null).statusCode())
                .as("the cookie still works")
                .isEqualTo(200);
        // An error page's language links stay on this site, whatever address was asked for.
        HttpResponse<String> offSite = send(own, "GET", "/evil.example/x", Map.of(), null);
        assertThat(offSite.statusCode()).isEqualTo(400);
        assertThat(offSite.body())
                .contains("href=\"/evil.example/x?lang=de\"")
                .doesNotContain("href=\"//");
    }

    @org.junit.jupiter.api.Test
    void failedLoginsAreSlowedDownAndTheRealUserGetsBackInSoonAfter() throws Exception {
        String login = "slow" + System.nanoTime() % 1_000_000;
        addUser(login, "editor");
        try {
            for (int i = 0; i < 5; i++) {
                assertThat(
                                send(
                                                null,
                                                "GET",
                                                "api/locks",
                                                Map.of(
                                                        "Authorization",
                                                        HostileApiCatalogue.basic(
                                                                login, "wrong" + i)),
                                                null)
                                        .statusCode())
                        .isEqualTo(401);
            }
            HttpResponse<String> slowed =
                    send(
                            null,
                            "GET",
                            "api/locks",
                            Map.of(
                                    "Authorization",
                                    HostileApiCatalogue.basic(login, "right-password")),
                            null);
            assertThat(slowed.statusCode())
                    .as("even the right password waits its turn")
                    .isEqualTo(429);
            assertThat(slowed.body()).contains("Too many failed logins");
            assertThat(Integer.parseInt(slowed.headers().firstValue("Retry-After").orElseThrow()))
                    .isBetween(1, 60);

            Browser screen = new Browser(URI.create(base.toString()));
            screen.login(login, "right-password");
            assertThat(screen.page())
                    .as("the login screen says so too")
                    .contains("Too many failed logins");

            org.awaitility.Awaitility.await("a real user is kept out for seconds, not for long")
                    .atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(250))
                    .until(
                            () ->
                                    send(
                                                            null,
                                                            "GET",
                                                            "api/locks",
                                                            Map.of(
                                                                    "Authorization",
                                                                    HostileApiCatalogue.basic(
                                                                            login,
                                                                            "right-password")),
                                                            null)
                                                    .statusCode()
                                            == 200);

            String unknown = "nobody" + System.nanoTime() % 1_000_000;
            for (int i = 0; i < 5; i++) {
                send(
                        null,
                        "GET",
                        "api/locks",
                        Map.of("Authorization", HostileApiCatalogue.basic(unknown, "x")),
                        null);
            }
            assertThat(
                            send(
                                            null,
                                            "GET",
                                            "api/locks",
                                            Map.of(
                                                    "Authorization",
                                                    HostileApiCatalogue.basic(unknown, "x")),
                                            null)
                                    .statusCode())
                    .as("an unknown user is slowed the same: the answer never tells who exists")
                    .isEqualTo(429);
        } finally {
            sql("delete from app_user where login = ?", login);
        }
    }

    @org.junit.jupiter.api.Test
    void aRoleTakenAwayStopsWorkingWithinTheRecheckTimeAndARemovedUserIsLoggedOut()
            throws Exception {
        String login = "temp" + System.nanoTime() % 1_000_000;
        addUser(login, "admin");
        try {
            HttpResponse<String> first =
                    send(
                            null,
                            "GET",
                            "api/locks/events?limit=1",
                            Map.of(
                                    "Authorization",
                                    HostileApiCatalogue.basic(login, "right-password")),
                            null);
            assertThat(first.statusCode()).isEqualTo(200);
            Session admin =
                    new Session(
                            first.headers().allValues("Set-Cookie").stream()
                                    .filter(c -> c.startsWith("JSESSIONID="))
                                    .map(c -> c.substring(0, c.indexOf(';')))
                                    .findFirst()
                                    .orElseThrow());
            sql("update app_user_role set role = 'editor' where login = ?", login);
            org.awaitility.Awaitility.await("the admin role is gone within the recheck time")
                    .atMost(Duration.ofSeconds(TestSettings.ROLE_RECHECK_SECONDS + 3))
                    .until(
                            () ->
                                    send(admin, "GET", "api/locks/events?limit=1", Map.of(), null)
                                                    .statusCode()
                                            == 403);
            assertThat(send(admin, "GET", "api/locks", Map.of(), null).statusCode())
                    .as("still an editor")
                    .isEqualTo(200);
            sql("delete from app_user where login = ?", login);
            org.awaitility.Awaitility.await("a removed user's session ends")
                    .atMost(Duration.ofSeconds(TestSettings.ROLE_RECHECK_SECONDS + 3))
                    .until(
                            () ->
                                    send(admin, "GET", "api/locks", Map.of(), null).statusCode()
                                            == 401);
        } finally {
            sql("delete from app_user where login = ?", login);
        }
    }

    // ---- anonymous clients, lockout, text, listener (issue: hostile clients) ----

    private static final Map<String, String> FORM =
            Map.of("Content-Type", "application/x-www-form-urlencoded");

    private static byte[] loginForm(String user, String password) {
        return ("login=login&login%3Ausername="
                        + java.net.URLEncoder.encode(user, StandardCharsets.UTF_8)
                        + "&login%3Apassword="
                        + java.net.URLEncoder.encode(password, StandardCharsets.UTF_8)
                        + "&login%3Asubmit=Log+in&jakarta.faces.ViewState=stateless")
                .getBytes(StandardCharsets.UTF_8);
    }

    @org.junit.jupiter.api.Test
    void anonymousVisitsAndFailedLoginsWithHugeNamesLeaveNoSessionBehind() throws Exception {
        URI at = URI.create(base.toString());
        Map<String, String> form = new java.util.HashMap<>(FORM);
        form.put("Origin", at.getScheme() + "://" + at.getAuthority());
        String huge = "n".repeat(200 * 1024);
        for (int i = 0; i < 200; i++) { // warm-up: first renderings and buffer pools grow once
            LoopbackHttp.send("127.0.0.4", at, "GET", "login.xhtml", Map.of(), null);
            if (i % 20 == 0) {
                LoopbackHttp.send(
                        "127.0.0.4", at, "POST", "login.xhtml", form, loginForm(huge, "wrong"));
            }
        }
        NodeHeap node = NodeHeap.listeningOn(at.getPort());
        Map<String, Long> classesBefore = node.histogram();
        long before = node.usedAfterGc();
        for (int i = 0; i < 5_000; i++) {
            if (i % 100 == 0 && sara != null) {
                heartbeats(); // the catalogue's sessions time out after 10 s of silence
            }
            LoopbackHttp.Answer page =
                    LoopbackHttp.send("127.0.0.4", at, "GET", "login.xhtml", Map.of(), null);
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.body()).contains("value=\"stateless\"");
            assertThat(page.hasHeader("Set-Cookie")).as("no session for a visit").isFalse();
            if (i % 50 == 0) { // 100 posts of 200 KB names
                LoopbackHttp.Answer post =
                        LoopbackHttp.send(
                                "127.0.0.4",
                                at,
                                "POST",
                                "login.xhtml",
                                form,
                                loginForm(huge + i, "wrong"));
                assertThat(post.status())
                        .as("a name longer than any field a page takes, refused before Faces")
                        .isEqualTo(400);
                assertThat(post.body()).contains("longer than any field Editlock takes");
                assertThat(post.hasHeader("Set-Cookie"))
                        .as("no session for a failed login")
                        .isFalse();
            }
        }
        LoopbackHttp.Answer missing =
                LoopbackHttp.send("127.0.0.4", at, "GET", "no-such-page.xhtml", Map.of(), null);
        assertThat(missing.status()).isEqualTo(302);
        assertThat(missing.hasHeader("Set-Cookie")).isFalse();
        LoopbackHttp.Answer refused =
                LoopbackHttp.send("127.0.0.4", at, "GET", "api/locks", Map.of(), null);
        assertThat(refused.status()).isEqualTo(401);
        for (LoopbackHttp.Answer made : List.of(missing, refused)) {
            assertThat(
                            List.of(
                                    "Content-Security-Policy",
                                    "X-Content-Type-Options",
                                    "X-Frame-Options",
                                    "Referrer-Policy"))
                    .as("answers made before the request guard (the login redirect, the API's 401)")
                    .allSatisfy(h -> assertThat(made.hasHeader(h)).as(h).isTrue());
        }
        long flooded = node.usedAfterGc();
        String grew = NodeHeap.growth(classesBefore, node.histogram());
        // The listener keeps each closed connection's record until its keep-alive timer (30 s)
        // comes due; after that, nothing of the visitors may be left.
        long settled = System.nanoTime();
        java.util.concurrent.atomic.AtomicLong after =
                new java.util.concurrent.atomic.AtomicLong(flooded);
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(5))
                .untilAsserted(
                        () -> {
                            if (sara != null) {
                                heartbeats(); // the catalogue's sessions outlive this wait
                            }
                            after.set(node.usedAfterGc());
                            assertThat(after.get() - before)
                                    .as("what anonymous visitors leave on the node's heap, bytes")
                                    .isLessThan(4L * 1024 * 1024);
                        });
        System.out.printf(
                "Node heap after a full GC: %,d KB before; %,d KB right after 5,000 anonymous visits"
                        + " and 100 failed logins with 200 KB names (%+,d KB; grown most:%n%s%n);"
                        + " %,d KB (%+,d KB) %d s later, once the closed connections' keep-alive"
                        + " timers came due%n",
                before / 1024,
                flooded / 1024,
                (flooded - before) / 1024,
                grew,
                after.get() / 1024,
                (after.get() - before) / 1024,
                (System.nanoTime() - settled) / 1_000_000_000);
    }

    /**
     * Made-up API tokens — no user name needed — from one address hold back only further made-up
     * tokens from it: a colleague at that address (an office's NAT, the proxy) logs in with the
     * right password at once, and a valid token from it gets in (the probe: refused for minutes).
     */
    @org.junit.jupiter.api.Test
    void madeUpTokensFromAnAddressKeepNeitherAPasswordNorAValidTokenOut() throws Exception {
        URI at = URI.create(base.toString());
        String office = "127.0.0.7"; // this test's own address: the counts are per address
        Session ada = login("ada");
        HttpResponse<String> made =
                send(
                        ada,
                        "POST",
                        "api/tokens",
                        HostileApiCatalogue.json(),
                        "{\"name\":\"office script\",\"days\":1}");
        assertThat(made.statusCode()).isEqualTo(201);
        jakarta.json.JsonObject token =
                jakarta.json.Json.createReader(new java.io.StringReader(made.body())).readObject();
        int heldBack = 0;
        for (int i = 0; i < 30; i++) {
            String madeUp = "elk_" + String.format("%043d", i);
            LoopbackHttp.Answer answer =
                    LoopbackHttp.send(
                            office,
                            at,
                            "GET",
                            "api/locks",
                            Map.of("Authorization", "Bearer " + madeUp),
                            null);
            assertThat(answer.status()).as("made-up token %d", i).isIn(401, 429);
            heldBack += answer.status() == 429 ? 1 : 0;
        }
        assertThat(heldBack).as("made-up tokens past the allowance are held back").isPositive();
        LoopbackHttp.Answer valid =
                LoopbackHttp.send(
                        office,
                        at,
                        "GET",
                        "api/locks",
                        Map.of("Authorization", "Bearer " + token.getString("token")),
                        null);
        assertThat(valid.status()).as("a valid token from the same address").isEqualTo(200);
        LoopbackHttp.Answer colleague =
                LoopbackHttp.send(
                        office,
                        at,
                        "GET",
                        "api/locks",
                        Map.of("Authorization", HostileApiCatalogue.basic("sara", "demo")),
                        null);
        assertThat(colleague.status())
                .as("a colleague's right password from the same address")
                .isEqualTo(200);
        colleague.headers().stream()
                .filter(
                        h ->
                                h.toLowerCase(java.util.Locale.ROOT)
                                        .startsWith("set-cookie: jsessionid="))
                .map(h -> h.substring(12, h.indexOf(';')))
                .forEach(cookie -> send(new Session(cookie), "POST", "api/logout", Map.of(), null));
        assertThat(
                        send(
                                        ada,
                                        "DELETE",
                                        "api/tokens/" + token.getJsonNumber("id").longValue(),
                                        Map.of(),
                                        null)
                                .statusCode())
                .isEqualTo(204);
        send(ada, "POST", "api/logout", Map.of(), null);
    }

    @org.junit.jupiter.api.Test
    void aGuesserAtSarasPasswordNeverKeepsSaraOut() throws Exception {
        URI at = URI.create(base.toString());
        whileGuessing(
                "127.0.0.2",
                at,
                () -> {
                    for (int i = 0; i < 5; i++) {
                        long start = System.nanoTime();
                        LoopbackHttp.Answer sara =
                                LoopbackHttp.send(
                                        "127.0.0.3",
                                        at,
                                        "GET",
                                        "api/locks",
                                        Map.of(
                                                "Authorization",
                                                HostileApiCatalogue.basic("sara", "demo")),
                                        null);
                        long millis = (System.nanoTime() - start) / 1_000_000;
                        assertThat(sara.status())
                                .as("Sara from her own machine, try %d", i)
                                .isEqualTo(200);
                        assertThat(millis).as("Sara is let in at once").isLessThan(2_000);
                        String cookie =
                                sara.headers().stream()
                                        .filter(
                                                h ->
                                                        h.toLowerCase()
                                                                .startsWith(
                                                                        "set-cookie: jsessionid="))
                                        .map(h -> h.substring(12, h.indexOf(';')))
                                        .findFirst()
                                        .orElseThrow();
                        send(new Session(cookie), "POST", "api/logout", Map.of(), null);
                    }
                });
        // Right after one of its guesses was checked and failed, the guesser's machine must wait
        // (at least a second, doubling): the right password from there is refused unchecked. (Not
        // at a random moment: once a wait has passed, the next attempt is checked, whoever sends
        // it.)
        await("a guess of the guesser's is checked and fails")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> fromTheGuesser(at, "guess").status() == 401);
        LoopbackHttp.Answer guess = fromTheGuesser(at, "demo");
        assertThat(guess.status())
                .as("the guesser's machine waits even with the right password")
                .isEqualTo(429);
    }

    /**
     * A guesser at Sara's password behind the same address as Sara (an office behind one address, a
     * colleague at the next desk): Sara's own browser, which logged in from there before, gets in
     * at once every time, by its device cookie; the right password from a browser without it (or
     * with Omar's) waits like the guesser.
     */
    @org.junit.jupiter.api.Test
    void sarasOwnBrowserGetsInBesideAGuesserAtTheSameAddress() throws Exception {
        URI at = URI.create(base.toString());
        String office = "127.0.0.12";
        String saras = deviceCookie(screenLogin(office, at, "sara", "demo", null));
        String omars = deviceCookie(screenLogin(office, at, "omar", "demo", null));
        whileGuessing(
                office,
                at,
                () -> {
                    for (int i = 0; i < 5; i++) {
                        long start = System.nanoTime();
                        LoopbackHttp.Answer in = screenLogin(office, at, "sara", "demo", saras);
                        long millis = (System.nanoTime() - start) / 1_000_000;
                        assertThat(in.status())
                                .as("Sara's own browser at the guesser's address, try %d", i)
                                .isEqualTo(302);
                        assertThat(millis).as("let in at once").isLessThan(2_000);
                    }
                });
        // Right after one of the guesser's guesses was checked and failed, Sara's right password
        // from there waits, from a browser without her device cookie or with Omar's.
        for (String cookie : java.util.Arrays.asList(null, omars)) {
            await("a guess is checked and fails")
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> guess(office, at).status() == 401);
            LoopbackHttp.Answer held = screenLogin(office, at, "sara", "demo", cookie);
            assertThat(held.status())
                    .as("the right password without Sara's device cookie (%s)", cookie)
                    .isNotEqualTo(302);
            assertThat(held.body()).contains("Too many");
        }
    }

    /** What a test does while a guesser runs. */
    private interface Meanwhile {
        void run() throws Exception;
    }

    /**
     * Runs {@code meanwhile} while a guesser on {@code address} fails Sara's password without
     * pause, once it is being slowed (past 20 refusals); what went wrong in the guesser's thread
     * fails the test after the join.
     */
    private static void whileGuessing(String address, URI at, Meanwhile meanwhile)
            throws Exception {
        java.util.concurrent.atomic.AtomicBoolean guessing =
                new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicInteger refused =
                new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<Throwable> guesserFailed =
                new java.util.concurrent.atomic.AtomicReference<>();
        Thread guesser =
                new Thread(
                        () -> {
                            try {
                                while (guessing.get()) {
                                    int status = guess(address, at).status();
                                    assertThat(status).as("a wrong guess").isIn(401, 429);
                                    refused.incrementAndGet();
                                }
                            } catch (Throwable e) {
                                guesserFailed.set(e);
                            }
                        });
        guesser.start();
        try {
            await("the guesser is being slowed")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> guesserFailed.get() != null || refused.get() > 20);
            meanwhile.run();
        } finally {
            guessing.set(false);
            guesser.join(60_000);
        }
        assertThat(guesser.isAlive()).as("the guesser stopped").isFalse();
        if (guesserFailed.get() != null) {
            throw new AssertionError("the guesser's thread failed", guesserFailed.get());
        }
    }

    /** A wrong guess at Sara's password through the API, from {@code address}. */
    private static LoopbackHttp.Answer guess(String address, URI at) throws java.io.IOException {
        return LoopbackHttp.send(
                address,
                at,
                "GET",
                "api/locks",
                Map.of("Authorization", HostileApiCatalogue.basic("sara", "guess")),
                null);
    }

    /**
     * A login on the login screen from {@code address}, presenting {@code device} (a device cookie,
     * {@code name=value}) when not null; a session it opens is logged out again.
     */
    private LoopbackHttp.Answer screenLogin(
            String address, URI at, String user, String password, String device) throws Exception {
        Map<String, String> form = new java.util.HashMap<>(FORM);
        form.put("Origin", at.getScheme() + "://" + at.getAuthority());
        if (device != null) {
            form.put("Cookie", device);
        }
        LoopbackHttp.Answer in =
                LoopbackHttp.send(
                        address, at, "POST", "login.xhtml", form, loginForm(user, password));
        in.headers().stream()
                .filter(
                        h ->
                                h.toLowerCase(java.util.Locale.ROOT)
                                        .startsWith("set-cookie: jsessionid="))
                .map(h -> h.substring(12, h.indexOf(';')))
                .forEach(cookie -> send(new Session(cookie), "POST", "api/logout", Map.of(), null));
        return in;
    }

    /** The device cookie a login set ({@code name=value}), after checking how it is set. */
    private static String deviceCookie(LoopbackHttp.Answer login) {
        assertThat(login.status()).as(login.body()).isEqualTo(302);
        String header =
                login.headers().stream()
                        .filter(
                                h ->
                                        h.toLowerCase(java.util.Locale.ROOT)
                                                .startsWith("set-cookie: editlock_device="))
                        .findFirst()
                        .orElseThrow(
                                () -> new AssertionError("no device cookie: " + login.headers()));
        assertThat(header.toLowerCase(java.util.Locale.ROOT))
                .contains("httponly")
                .contains("samesite=lax")
                .contains("max-age=7776000");
        return header.substring(12, header.indexOf(';'));
    }

    /** Sara's name with {@code password}, from the guesser's machine (127.0.0.2). */
    private static LoopbackHttp.Answer fromTheGuesser(URI at, String password)
            throws java.io.IOException {
        return LoopbackHttp.send(
                "127.0.0.2",
                at,
                "GET",
                "api/locks",
                Map.of("Authorization", HostileApiCatalogue.basic("sara", password)),
                null);
    }

    @org.junit.jupiter.api.Test
    void aPasswordWithUmlautsLogsInOnTheFirstPostOfAFreshSession() throws Exception {
        String login = "umlaut" + System.nanoTime() % 1_000_000;
        sql(
                "insert into app_user (login, display_name, password_hash) values (?, ?, ?)",
                login,
                "Jürgen",
                com.editlock.launcher.AddUser.hash(
                        "Grüße-ß".toCharArray(), new java.security.SecureRandom()));
        sql("insert into app_user_role (login, role) values (?, 'editor')", login);
        try {
            URI at = URI.create(base.toString());
            Map<String, String> form = new java.util.HashMap<>(FORM);
            form.put("Origin", at.getScheme() + "://" + at.getAuthority());
            LoopbackHttp.Answer in =
                    LoopbackHttp.send(
                            "127.0.0.5",
                            at,
                            "POST",
                            "login.xhtml",
                            form,
                            loginForm(login, "Grüße-ß"));
            assertThat(in.status()).as(in.body()).isEqualTo(302);
            assertThat(in.headers())
                    .anyMatch(
                            h ->
                                    h.toLowerCase().startsWith("location:")
                                            && h.contains("configurators"));
            String cookie =
                    in.headers().stream()
                            .filter(h -> h.toLowerCase().startsWith("set-cookie: jsessionid="))
                            .map(h -> h.substring(12, h.indexOf(';')))
                            .findFirst()
                            .orElseThrow();
            send(new Session(cookie), "POST", "api/logout", Map.of(), null);
        } finally {
            sql("delete from app_user where login = ?", login);
        }
    }

    @org.junit.jupiter.api.Test
    void unknownUsersAndWrongPasswordsAreRefusedInTheSameTime() throws Exception {
        String login = "timing" + System.nanoTime() % 1_000_000;
        addUser(login, "editor");
        try {
            URI at = URI.create(base.toString());
            long[][] millis = new long[2][20];
            // Four tries per address (5 addresses): below every allowance, so no try is throttled.
            for (int i = 0; i < 20; i++) {
                for (int kind = 0; kind < 2; kind++) {
                    String name = kind == 0 ? login : "nobody" + System.nanoTime() % 1_000_000;
                    long start = System.nanoTime();
                    LoopbackHttp.Answer r =
                            LoopbackHttp.send(
                                    "127.0.1." + (10 + i / 4),
                                    at,
                                    "GET",
                                    "api/locks",
                                    Map.of(
                                            "Authorization",
                                            HostileApiCatalogue.basic(name, "wrong")),
                                    null);
                    millis[kind][i] = (System.nanoTime() - start) / 1_000_000;
                    assertThat(r.status()).isEqualTo(401);
                    assertThat(r.body()).contains("Wrong user name or password");
                }
            }
            System.out.printf(
                    "refusal times over 20 tries (ms): wrong password %s, unknown user %s%n",
                    java.util.Arrays.toString(millis[0]), java.util.Arrays.toString(millis[1]));
        } finally {
            sql("delete from app_user where login = ?", login);
        }
    }

    @org.junit.jupiter.api.Test
    void noInputReachesA5xx() throws Exception {
        URI at = URI.create(base.toString());
        LoopbackHttp.Answer resource =
                LoopbackHttp.send(
                        "127.0.0.6", at, "GET", "jakarta.faces.resource/.xhtml", Map.of(), null);
        assertThat(resource.status()).isEqualTo(404);
        assertThat(resource.body()).contains("There is no such resource.");
        assertThat(resource.hasHeader("Content-Security-Policy")).isTrue();

        HttpResponse<String> charset =
                send(
                        null,
                        "POST",
                        "api/locks",
                        Map.of(
                                "Authorization",
                                HostileApiCatalogue.basic("sara", "demo"),
                                "Content-Type",
                                "application/json; charset=foo"),
                        "{\"resource\":\"configurator:1\"}");
        assertThat(charset.statusCode()).isEqualTo(415);
        assertThat(charset.body()).contains("Send the body in UTF-8");

        Browser sara = new Browser(at);
        sara.login("sara", "demo");
        try {
            Map<String, String> before = state();
            java.nio.file.Path log =
                    com.editlock.it.node.PayaraMicroContainer.currentLog().orElseThrow();
            long from = java.nio.file.Files.size(log);
            HttpResponse<String> stateless =
                    send(
                            new Session("JSESSIONID=" + sara.sessionId().orElseThrow()),
                            "POST",
                            "configurators.xhtml",
                            Map.of(
                                    "Content-Type",
                                    "application/x-www-form-urlencoded",
                                    "Origin",
                                    at.getScheme() + "://" + at.getAuthority()),
                            "jakarta.faces.ViewState=stateless&x=1");
            assertThat(stateless.statusCode()).isEqualTo(400);
            assertThat(stateless.body()).contains("This page has expired");
            assertThat(state()).isEqualTo(before);
            assertThat(logUpToAMark(log, from))
                    .as(
                            "what the node logged for a view state that claims a stateful page is"
                                    + " stateless (before: two stack traces)")
                    .doesNotContain("\tat ")
                    .doesNotContain("Unable to restore view");
        } finally {
            sara.post("api/logout");
        }
    }

    private static void addUser(String login, String role) throws Exception {
        TestDatabase.addUser(login, "Temp " + login, role);
    }

    private static void sql(String sql, Object... params) throws Exception {
        try (Connection c = TestDatabase.connect();
                var ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
        }
    }

    // ---- helpers ----

    private Session login(String user) {
        HttpResponse<String> r =
                send(
                        null,
                        "GET",
                        "api/locks",
                        Map.of("Authorization", HostileApiCatalogue.basic(user, "demo")),
                        null);
        assertThat(r.statusCode()).isEqualTo(200);
        String cookie =
                r.headers().allValues("Set-Cookie").stream()
                        .filter(c -> c.startsWith("JSESSIONID="))
                        .map(c -> c.substring(0, c.indexOf(';')))
                        .findFirst()
                        .orElseThrow();
        return new Session(cookie);
    }

    /**
     * The catalogue's sessions beat (which also keeps them from timing out: 10 s in the tests), and
     * the node's next renewal round has renewed Sara's and Omar's locks with those beats: no beat
     * waits for a round any more, so no lease moves while a case runs and the state compared
     * includes the leases.
     */
    private void heartbeats() {
        sessions();
        // The JVM and the database read one clock (same machine); the round comes after the beats.
        java.sql.Timestamp beaten = java.sql.Timestamp.from(java.time.Instant.now());
        for (Session s : List.of(sara, omar, ada)) {
            assertThat(send(s, "POST", "api/locks/heartbeat", Map.of(), null).statusCode())
                    .isEqualTo(204);
        }
        await("the node's renewal round has renewed the catalogue's locks")
                .atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                count(
                                                "select count(*) from app_lock where renewed_at < ? and"
                                                        + " ((resource_key = 'configurator:1' and user_login = 'sara')"
                                                        + " or (resource_key = 'configurator:2' and user_login = 'omar'))",
                                                beaten)
                                        == 0);
    }

    private static long count(String sql, Object... params) {
        try (Connection c = TestDatabase.connect();
                java.sql.PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> send(
            Session as, String method, String path, Map<String, String> headers, String body) {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        if (as != null) {
            b.header("Cookie", as.cookie());
        }
        headers.forEach(
                (k, v) -> {
                    if (!k.equals("X-Chunked")) {
                        b.header(k, v);
                    }
                });
        HttpRequest.BodyPublisher publisher;
        if (body == null) {
            publisher = HttpRequest.BodyPublishers.noBody();
        } else if (headers.containsKey("X-Chunked")) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            publisher =
                    HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes));
        } else {
            publisher = HttpRequest.BodyPublishers.ofString(body);
        }
        try {
            return http.send(
                    b.method(method, publisher).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(method + " " + path + " failed: " + e, e);
        }
    }

    /**
     * Every lock row, its lease included: {@link #heartbeats} waits for the round that renews the
     * catalogue's beats, so a lease that moves during a case was moved by the case.
     */
    private static final String LOCK_ROWS =
            "(select id, resource_key, aggregate_key, mode, owner_id, owner_view, user_login,"
                    + " display_name, acquired_at, renewed_at, expires_at, fencing_token from app_lock)";

    /**
     * The people, without when each was last seen: a refused request by a logged-in person is still
     * that person acting, and the people screen says when they last did (to the minute).
     */
    private static final String USER_ROWS =
            "(select login, display_name, password_hash, created_at, disabled_at, disabled_by,"
                    + " disabled_reason, oidc_issuer, oidc_subject from app_user)";

    /**
     * What must not change: every lock row, the configurator tables, the people and what admins
     * changed about them, and the history apart from refusals (a refused lock request is audited as
     * DENIED, on purpose).
     */
    private static Map<String, String> state() throws Exception {
        Map<String, String> state = new LinkedHashMap<>();
        try (Connection c = TestDatabase.connect();
                Statement s = c.createStatement()) {
            for (String table :
                    List.of(
                            "app_lock",
                            "configurator",
                            "configurator_item",
                            "item_filter",
                            "configurator_variable",
                            "aggregate_version",
                            "app_user",
                            "app_user_role",
                            "api_token",
                            "edit_draft",
                            "handover_request",
                            "person_change",
                            "provider_logout")) {
                state.put(
                        table,
                        digest(
                                s,
                                "select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) "
                                        + "from "
                                        + switch (table) {
                                            case "app_lock" -> LOCK_ROWS;
                                            case "app_user" -> USER_ROWS;
                                            default -> table;
                                        }
                                        + " t"));
            }
            state.put(
                    "lock_event",
                    digest(
                            s,
                            "select md5(coalesce(string_agg(t::text, '|' order by t.id), '')) "
                                    + "from lock_event t where event_type <> 'DENIED'"));
        }
        return state;
    }

    private static String digest(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** A raw connection to the node from 127.0.0.1, its reads waiting at most {@code millis}. */
    private java.net.Socket rawConnection(int millis) throws Exception {
        java.net.Socket socket = new java.net.Socket();
        socket.connect(new java.net.InetSocketAddress(base.getHost(), base.getPort()), 5_000);
        socket.setSoTimeout(millis);
        return socket;
    }

    /**
     * Plain-text HTTP/2 is off (docs/security.md: the plain listener's {@code
     * http2-enabled=false}): a request that asks to upgrade ({@code Upgrade: h2c}, as Java's HTTP
     * client sends) gets no {@code 101} and is answered as the HTTP/1.1 request it also is, the
     * connection kept for the next request; one with a body is refused at once ({@code 400},
     * connection closed, nothing changed) instead of waiting for a body the container keeps for
     * HTTP/2; a prior-knowledge preface ({@code PRI * HTTP/2.0}) gets no HTTP/2 frame.
     */
    @org.junit.jupiter.api.Test
    void plainTextHttp2IsRefusedAndAnUpgradeRequestIsAnsweredAsHttp11() throws Exception {
        String host = "Host: " + base.getHost() + ":" + base.getPort() + "\r\n";
        String upgrade =
                "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                        + "HTTP2-Settings: AAEAAEAAAAIAAAABAAMAAABkAAQBAAAAAAUAAEAA\r\n";
        String get = "GET " + base.getPath() + "login.xhtml HTTP/1.1\r\n" + host + upgrade + "\r\n";
        assertThat(statuses(exchange(get, 20_000)))
                .as("no switch to HTTP/2 (no 101): the upgrade GET answered as HTTP/1.1")
                .containsExactly("200");

        byte[] body = "{\"resource\":\"configurator:3\"}".getBytes(StandardCharsets.UTF_8);
        String post =
                "POST "
                        + base.getPath()
                        + "api/locks HTTP/1.1\r\n"
                        + host
                        + "Authorization: "
                        + HostileApiCatalogue.basic("ada", "demo")
                        + "\r\n"
                        + upgrade
                        + "Content-Type: application/json\r\nContent-Length: "
                        + body.length
                        + "\r\n\r\n"
                        + new String(body, StandardCharsets.UTF_8);
        long start = System.nanoTime();
        String answer = exchange(post, 20_000);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(statuses(answer))
                .as("an upgrade POST is refused, not left waiting for its body: %s", answer)
                .containsExactly("400");
        assertThat(answer).contains("Upgrade: h2c").containsIgnoringCase("Connection: close");
        assertThat(seconds).as("refused at once, in s").isLessThan(5.0);
        assertThat(
                        new Browser(URI.create(base.toString()))
                                .basic("ada", "demo")
                                .get("api/locks/configurator:3")
                                .statusCode())
                .as("nothing changed: configurator 3 is not locked")
                .isEqualTo(404);

        String preface;
        try (java.net.Socket socket = rawConnection(10_000)) {
            socket.getOutputStream()
                    .write(
                            "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
                                    .getBytes(StandardCharsets.ISO_8859_1));
            preface =
                    new String(socket.getInputStream().readNBytes(9), StandardCharsets.ISO_8859_1);
        }
        assertThat(preface)
                .as("no HTTP/2 settings frame: nothing, or an HTTP/1.1 answer")
                .satisfiesAnyOf(
                        a -> assertThat(a).isEmpty(), a -> assertThat(a).startsWith("HTTP/1.1 "));
    }

    /** Sends {@code requests} on one raw connection and reads until the node closes it. */
    /**
     * An API body of unknown length that cannot be read — its chunked encoding broken, or cut off
     * half-way (the client stops sending) — is answered {@code 400} (a client that closed its side
     * may find its connection closed instead), nothing is taken, and no stack trace reaches the
     * node's log (the probe's finding: a 500 and two stack traces each). A body cut off is read by
     * Editlock, which writes one line about it; a malformed chunk is refused by the container's
     * HTTP codec before Editlock sees it, whose stack trace the shipped logging configuration keeps
     * out.
     */
    @org.junit.jupiter.api.Test
    void aBrokenOrCutOffChunkedApiBodyIsA400AndNoStackTrace() throws Exception {
        java.nio.file.Path log =
                com.editlock.it.node.PayaraMicroContainer.currentLog().orElseThrow();
        String json = "{\"resource\":\"configurator:3\"}";
        Map<String, String> bodies = new LinkedHashMap<>();
        bodies.put("broken", "zz\r\n" + json + "\r\n0\r\n\r\n");
        bodies.put("cut off", "100\r\n" + json);
        for (Map.Entry<String, String> body : bodies.entrySet()) {
            long from = java.nio.file.Files.size(log);
            String answer = chunkedLockRequest(body.getValue());
            if (body.getKey().equals("broken")) {
                assertThat(statuses(answer)).as(body.getKey()).containsExactly("400");
            } else { // the client closed its side: the node's 400 may find the connection gone
                assertThat(statuses(answer)).as(body.getKey()).isIn(List.of(), List.of("400"));
            }
            assertThat(
                            send(login("omar"), "GET", "api/locks/configurator:3", Map.of(), null)
                                    .statusCode())
                    .as("%s: nothing was taken", body.getKey())
                    .isEqualTo(404);
            String logged = logUpToAMark(log, from);
            assertThat(logged)
                    .as("%s: no stack trace in the node's log", body.getKey())
                    .doesNotContain("\tat ");
            if (body.getKey().equals("cut off")) {
                assertThat(logged.lines().filter(l -> l.contains("its body could not be read")))
                        .as("one line for the body cut off, one for the mark")
                        .hasSize(2);
            }
        }
    }

    /**
     * Ada's {@code POST /api/locks} with a chunked body of {@code chunks} (the client sends nothing
     * more after them); the answer.
     */
    private String chunkedLockRequest(String chunks) throws Exception {
        try (java.net.Socket socket = rawConnection(20_000)) {
            socket.getOutputStream()
                    .write(
                            ("POST "
                                            + base.getPath()
                                            + "api/locks HTTP/1.1\r\nHost: "
                                            + base.getHost()
                                            + ":"
                                            + base.getPort()
                                            + "\r\nAuthorization: "
                                            + HostileApiCatalogue.basic("ada", "demo")
                                            + "\r\nContent-Type: application/json"
                                            + "\r\nTransfer-Encoding: chunked"
                                            + "\r\nConnection: close\r\n\r\n"
                                            + chunks)
                                    .getBytes(StandardCharsets.ISO_8859_1));
            socket.shutdownOutput(); // the client sends nothing more
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * Slow bodies, no login needed: 40 connections from one address each announce a 1,000-byte
     * login form and send 11 bytes of it. The node reads at most {@link
     * com.editlock.security.BodyReads#MAX_PER_ADDRESS} of them at once (each holds a worker while
     * it waits); the others are answered {@code 429} at once, unread, so the address cannot take
     * the node's workers (the probe: ~200 slow bodies made every request wait 26–30 s). Once the
     * slow clients go, the address's forms are read again.
     */
    @org.junit.jupiter.api.Test
    void slowBodiesFromOneAddressHoldNoMoreThanTheirBoundOfWorkers() throws Exception {
        int bound = com.editlock.security.BodyReads.MAX_PER_ADDRESS;
        int slow = bound + 24;
        String post =
                "POST "
                        + base.getPath()
                        + "login.xhtml HTTP/1.1\r\nHost: "
                        + base.getHost()
                        + ":"
                        + base.getPort()
                        + "\r\nContent-Type: application/x-www-form-urlencoded"
                        + "\r\nContent-Length: 1000\r\n\r\nlogin=login";
        List<java.net.Socket> held = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < slow; i++) {
                java.net.Socket socket = new java.net.Socket();
                socket.bind(new java.net.InetSocketAddress("127.0.0.9", 0));
                socket.connect(
                        new java.net.InetSocketAddress(base.getHost(), base.getPort()), 5_000);
                socket.getOutputStream().write(post.getBytes(StandardCharsets.ISO_8859_1));
                held.add(socket);
            }
            Map<java.net.Socket, String> answered = new java.util.concurrent.ConcurrentHashMap<>();
            await("the bodies beyond the bound are refused at once")
                    .atMost(Duration.ofSeconds(10))
                    .until(
                            () -> {
                                for (java.net.Socket socket : held) {
                                    if (!answered.containsKey(socket)
                                            && socket.getInputStream().available() > 0) {
                                        byte[] got = new byte[socket.getInputStream().available()];
                                        int n = socket.getInputStream().read(got);
                                        answered.put(
                                                socket,
                                                new String(got, 0, n, StandardCharsets.UTF_8));
                                    }
                                }
                                return answered.size() >= slow - bound;
                            });
            assertThat(answered.values())
                    .as("every answer to the slow bodies")
                    .allSatisfy(
                            a -> {
                                assertThat(statuses(a)).containsExactly("429");
                                assertThat(a).contains("Retry-After: 5");
                            });
            assertThat(answered).as("refused: all but the bound").hasSize(slow - bound);
            HttpResponse<String> meanwhile =
                    send(null, "GET", "login.xhtml", Map.of(), null); // another user, meanwhile
            assertThat(meanwhile.statusCode()).isEqualTo(200);
        } finally {
            for (java.net.Socket socket : held) {
                socket.close();
            }
        }
        await("the address's forms are read again once its slow clients left")
                .atMost(Duration.ofSeconds(10))
                .until(
                        () -> {
                            try (java.net.Socket socket = new java.net.Socket()) {
                                socket.bind(new java.net.InetSocketAddress("127.0.0.9", 0));
                                socket.connect(
                                        new java.net.InetSocketAddress(
                                                base.getHost(), base.getPort()),
                                        5_000);
                                socket.setSoTimeout(10_000);
                                String form = "login=login&x=" + "y".repeat(986);
                                socket.getOutputStream()
                                        .write(
                                                (post.replace("login=login", "") + form + "")
                                                        .getBytes(StandardCharsets.ISO_8859_1));
                                byte[] first = new byte[12];
                                int n = socket.getInputStream().readNBytes(first, 0, 12);
                                return !statuses(
                                                new String(first, 0, n, StandardCharsets.UTF_8)
                                                        + " ")
                                        .contains("429");
                            }
                        });
    }

    /**
     * What the node logged from {@code from} up to a line this test makes it write now (a chunked
     * body cut off, answered with one line): everything a request before that one logged is in.
     */
    private String logUpToAMark(java.nio.file.Path log, long from) throws Exception {
        String line = "its body could not be read";
        long before = newLines(log, from).lines().filter(l -> l.contains(line)).count();
        chunkedLockRequest("100\r\n{}");
        return await("the node's mark line")
                .atMost(Duration.ofSeconds(5))
                .until(
                        () -> newLines(log, from),
                        l -> l.lines().filter(x -> x.contains(line)).count() > before);
    }

    private static String newLines(java.nio.file.Path log, long from) throws Exception {
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(log.toFile(), "r")) {
            file.seek(from);
            byte[] rest = new byte[(int) (file.length() - from)];
            file.readFully(rest);
            return new String(rest, StandardCharsets.UTF_8);
        }
    }

    private String exchange(String requests, int millis) throws Exception {
        try (java.net.Socket socket = rawConnection(millis)) {
            socket.getOutputStream().write(requests.getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static List<String> statuses(String answers) {
        return java.util.regex.Pattern.compile("HTTP/1\\.1 (\\d{3}) ")
                .matcher(answers)
                .results()
                .map(m -> m.group(1))
                .toList();
    }
}
