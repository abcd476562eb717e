package com.editlock.it;

import static com.editlock.it.browser.ProviderPages.claims;
import static com.editlock.it.browser.ProviderPages.query;
import static com.editlock.it.browser.ProviderPages.signIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.editlock.it.browser.Axe;
import com.editlock.it.browser.Browser;
import com.editlock.it.browser.Chromium;
import com.editlock.it.browser.Pages;
import com.editlock.it.browser.ProviderPages;
import com.editlock.it.browser.ProviderPages.Begun;
import com.editlock.it.node.Deployments;
import com.editlock.it.node.TestDatabase;
import com.editlock.it.node.TestProvider;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Logging in through the company's OpenID Connect provider ({@link TestProvider}, its login page
 * posted as a browser would): a first login creates the person with the roles of their groups, a
 * later one follows their groups, and every answer that is not the provider's own, current answer
 * to a sign-in begun in this browser is refused with a sentence and creates nobody.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class SingleSignOnIT {

    @Deployment(testable = false)
    public static WebArchive deployment() {
        return Deployments.editlock()
                .addAsResource(
                        new StringAsset(TestProvider.settings()),
                        "META-INF/microprofile-config.properties");
    }

    @ArquillianResource URL base;

    /** A browser's first steps: the login page's button, then the provider's login page. */
    private Begun begin() {
        HttpResponse<String> login = new Browser(URI.create(base.toString())).get("login.xhtml");
        assertThat(login.body())
                .as("the login page offers the provider")
                .contains("data-testid=\"login-with-provider\"")
                .contains("Log in with " + TestProvider.NAME);
        Begun begun = ProviderPages.begin(base);
        Map<String, String> asked = query(begun.authorize());
        assertThat(asked)
                .containsEntry("response_type", "code")
                .containsEntry("client_id", TestProvider.CLIENT_ID)
                .containsEntry("code_challenge_method", "S256")
                .containsKeys("state", "nonce", "code_challenge", "redirect_uri");
        assertThat(asked.get("scope")).contains("openid");
        return begun;
    }

    @Test
    void aFirstLoginThroughTheProviderCreatesThePersonWithTheRolesOfTheirGroups() throws Exception {
        String suffix = Long.toString(System.nanoTime(), 36);
        String login = "omar.k" + suffix;
        String subject = "sub-" + suffix;
        Begun begun = begin();
        URI answer = signIn(begun, subject, claims(login, "Omar Kaya", "editlock-editors"));
        assertThat(answer.toString()).startsWith(base + "oidc/callback?");
        HttpResponse<String> back = begun.browser().get(answer.toString());
        assertThat(back.statusCode()).as(back.body()).isEqualTo(302);
        assertThat(back.headers().firstValue("Location").orElseThrow())
                .as("back to the page first asked for")
                .endsWith("/configurators.xhtml");
        HttpResponse<String> list = begun.browser().get("configurators.xhtml");
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body()).contains("Omar Kaya");
        assertThat(person(login))
                .as("created at the first login, known by the issuer and subject")
                .isEqualTo(
                        List.of(
                                "Omar Kaya",
                                TestProvider.issuer(),
                                subject,
                                "no password",
                                "editor"));
        assertThat(changes(login)).containsExactly("added by provider: editor");

        Begun again = begin();
        HttpResponse<String> second =
                again.browser()
                        .get(
                                signIn(
                                                again,
                                                subject,
                                                claims(
                                                        "someone-else",
                                                        "Omar Kaya-Berg",
                                                        "editlock-editors",
                                                        "editlock-take-over",
                                                        "a-group-editlock-ignores"))
                                        .toString());
        assertThat(second.statusCode()).as(second.body()).isEqualTo(302);
        assertThat(person(login))
                .as("the same person (by subject), with the name and roles the provider gives now")
                .isEqualTo(
                        List.of(
                                "Omar Kaya-Berg",
                                TestProvider.issuer(),
                                subject,
                                "no password",
                                "editor,take-over"));
        assertThat(changes(login))
                .containsExactly(
                        "added by provider: editor", "roles by provider: editor,take-over");

        Browser ada = new Browser(URI.create(base.toString())).basic("ada", "demo");
        JsonObject listed =
                Json.createReader(new StringReader(ada.get("api/people").body()))
                        .readArray()
                        .stream()
                        .map(v -> v.asJsonObject())
                        .filter(p -> p.getString("login").equals(login))
                        .findFirst()
                        .orElseThrow();
        assertThat(listed.getString("source")).isEqualTo("provider");
        HttpResponse<String> reset = ada.post("api/people/" + login + "/password");
        assertThat(reset.statusCode()).isEqualTo(409);
        assertThat(reset.body()).contains("logs in through the provider");
        assertThat(
                        new Browser(URI.create(base.toString()))
                                .basic(login, "")
                                .get("api/locks")
                                .statusCode())
                .as("no password logs a provider's person in")
                .isEqualTo(401);

        assertThat(
                        java.nio.file.Files.readString(
                                com.editlock.it.node.PayaraMicroContainer.currentLog()
                                        .orElseThrow()))
                .as("the node's log never shows the client secret")
                .doesNotContain(TestProvider.CLIENT_SECRET);

        // Logout ends the session here and at the provider, which sends the browser back.
        Browser omar = again.browser();
        omar.get("configurators.xhtml");
        HttpResponse<String> out = omar.submit("logoutForm", Map.of(), "logoutForm:logout");
        assertThat(out.statusCode()).as(out.body()).isEqualTo(302);
        URI endSession = URI.create(out.headers().firstValue("Location").orElseThrow());
        assertThat(endSession.toString()).startsWith(TestProvider.issuer() + "/endsession");
        assertThat(query(endSession))
                .containsKey("id_token_hint")
                .containsEntry("post_logout_redirect_uri", base + "login.xhtml?loggedOut=true");
        assertThat(omar.get("api/locks").statusCode()).as("the session ended").isEqualTo(401);
        HttpResponse<String> atProvider = omar.get(endSession.toString());
        assertThat(atProvider.headers().firstValue("Location"))
                .as("the provider sends the browser back to Editlock's login page")
                .contains(base + "login.xhtml?loggedOut=true");
    }

    /**
     * The issue's browser story: Omar logs in through the provider's page (his roles from its
     * groups), opens a record and types; Ada disables him on the people screen with a reason. His
     * page says so at once, his record is free, what he typed is his draft, his API token is
     * refused, and a new login by him through the provider is refused with the reason.
     */
    @Test
    void omarLogsInThroughTheProviderAndIsDisabledWhileEditing() throws Exception {
        Chromium.require();
        String suffix = Long.toString(System.nanoTime(), 36);
        String login = "omar.b" + suffix;
        String subject = "omar-" + suffix;
        ChromeDriver omar = Chromium.start("en-US", "Europe/London");
        ChromeDriver ada = Chromium.start("en-US", "Europe/London");
        ChromeDriver again = Chromium.start("en-US", "Europe/London");
        try {
            for (String language : List.of("en", "de")) {
                omar.get(base + "login.xhtml?lang=" + language);
                assertThat(Axe.violations(omar))
                        .as("the login page with the provider's button, in " + language)
                        .isEmpty();
            }
            assertThat(
                            omar.findElement(By.cssSelector("[data-testid=login-with-provider]"))
                                    .getText())
                    .isEqualTo("Anmelden mit " + TestProvider.NAME);
            omar.get(base + "login.xhtml?lang=en");
            throughTheProvider(omar, subject, claims(login, "Omar Berg", "editlock-editors"));
            await().atMost(Duration.ofSeconds(10))
                    .until(
                            () ->
                                    !omar.findElements(By.cssSelector("[data-testid=logout]"))
                                            .isEmpty());
            assertThat(omar.findElement(By.tagName("body")).getText()).contains("Omar Berg");
            Browser omarsScript =
                    new Browser(URI.create(base.toString()))
                            .cookie(
                                    sessionCookie(
                                            omar.manage().getCookieNamed("JSESSIONID").getValue()));
            HttpResponse<String> made = omarsScript.postJson("api/tokens", "{\"name\":\"import\"}");
            assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
            String token =
                    Json.createReader(new StringReader(made.body()))
                            .readObject()
                            .getString("token");
            assertThat(
                            new Browser(URI.create(base.toString()))
                                    .bearer(token)
                                    .get("api/locks")
                                    .statusCode())
                    .isEqualTo(200);

            long record = TestDatabase.newConfigurator("Omar's record");
            omar.get(base + "configurator.xhtml?id=" + record);
            await().atMost(Duration.ofSeconds(5))
                    .until(
                            () ->
                                    !omar.findElements(By.cssSelector("[data-testid=edit-form]"))
                                            .isEmpty());
            omar.findElement(By.id("edit:description")).sendKeys("Prices checked up to row 12");
            await("what Omar typed is his draft on the server")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> drafts(login) == 1);

            Pages.login(ada, base, "ada");
            ada.get(base + "admin/people.xhtml");
            By omarsRow = By.cssSelector("[data-testid=person-row][data-login='" + login + "']");
            assertThat(ada.findElement(omarsRow).getText())
                    .contains("Omar Berg")
                    .contains("the provider");
            ada.findElement(omarsRow)
                    .findElement(By.cssSelector("[data-testid=disable-person]"))
                    .click();
            await().atMost(Duration.ofSeconds(5))
                    .until(
                            () ->
                                    !ada.findElements(
                                                    By.cssSelector("[data-testid=disable-reason]"))
                                            .isEmpty());
            ada.findElement(By.cssSelector("[data-testid=disable-reason]"))
                    .sendKeys("Moved to the Oslo office");
            Pages.click(ada, "confirm-disable");
            try {
                Pages.whileItNavigates(
                                "Omar's page says who released his record and why",
                                Duration.ofSeconds(5))
                        .until(
                                () ->
                                        omar
                                                .findElements(
                                                        By.cssSelector("[data-testid=lock-lost]"))
                                                .stream()
                                                .anyMatch(
                                                        e ->
                                                                e.getText()
                                                                        .contains(
                                                                                "Moved to the Oslo office")));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError(
                        "Omar's page did not say why his record was released; it is "
                                + omar.getCurrentUrl()
                                + " and says: "
                                + omar.findElement(By.tagName("body")).getText(),
                        e);
            }
            Browser adaScript = new Browser(URI.create(base.toString())).basic("ada", "demo");
            assertThat(adaScript.get("api/locks/configurator:" + record).statusCode())
                    .as("his record is free")
                    .isEqualTo(404);
            assertThat(drafts(login)).as("what he typed is kept").isEqualTo(1);
            assertThat(
                            new Browser(URI.create(base.toString()))
                                    .bearer(token)
                                    .get("api/locks")
                                    .statusCode())
                    .as("his API token")
                    .isEqualTo(401);

            Map<String, Long> before = people();
            throughTheProvider(again, subject, claims(login, "Omar Berg", "editlock-editors"));
            await("a new login by him through the provider is refused, with the reason")
                    .atMost(Duration.ofSeconds(10))
                    .until(
                            () ->
                                    again.findElement(By.tagName("body"))
                                            .getText()
                                            .contains("Moved to the Oslo office"));
            assertThat(again.findElement(By.cssSelector("[data-testid=error-message]")).getText())
                    .contains("Omar Berg is disabled (by ada): Moved to the Oslo office");
            assertThat(again.findElements(By.cssSelector("[data-testid=logout]"))).isEmpty();
            assertThat(people()).as("nothing changed").isEqualTo(before);
        } finally {
            for (ChromeDriver d : List.of(omar, ada, again)) {
                Chromium.quit(d);
            }
        }
    }

    /**
     * The provider's back-channel logout: a logout token it signed for Editlock ends the person's
     * sessions logged in through it, on this node within a second, and what they held is free;
     * tokens that are not the provider's, or not for Editlock, or sent twice, are refused with
     * {@code 400} and end nothing.
     */
    @Test
    void theProvidersBackChannelLogoutEndsThePersonsSessionsAndFreesWhatTheyHeld()
            throws Exception {
        String suffix = Long.toString(System.nanoTime(), 36);
        String login = "liv" + suffix;
        String subject = "liv-" + suffix;
        Begun begun = begin();
        HttpResponse<String> in =
                begun.browser()
                        .get(
                                signIn(begun, subject, claims(login, "Liv", "editlock-editors"))
                                        .toString());
        assertThat(in.statusCode()).as(in.body()).isEqualTo(302);
        long record = TestDatabase.newConfigurator("Liv's record");
        HttpResponse<String> took =
                begun.browser()
                        .postJson("api/locks", "{\"resource\":\"configurator:" + record + "\"}");
        assertThat(took.statusCode()).as(took.body()).isEqualTo(201);
        Browser provider = new Browser(URI.create(base.toString()));
        String event = "http://schemas.openid.net/event/backchannel-logout";
        Map<String, Object> logoutClaims = Map.of("events", Map.of(event, Map.of()));

        for (String[] refused :
                new String[][] {
                    {
                        "signed by another issuer",
                        logoutToken("elsewhere", subject, TestProvider.CLIENT_ID, logoutClaims)
                    },
                    {
                        "for another client",
                        logoutToken(TestProvider.ISSUER_ID, subject, "another-app", logoutClaims)
                    },
                    {
                        "without the logout event",
                        logoutToken(
                                TestProvider.ISSUER_ID, subject, TestProvider.CLIENT_ID, Map.of())
                    },
                    {"not a token", "not.a.token"}
                }) {
            HttpResponse<String> r =
                    provider.postForm(
                            "oidc/backchannel-logout", Map.of("logout_token", refused[1]));
            assertThat(r.statusCode()).as(refused[0] + ": " + r.body()).isEqualTo(400);
            assertThat(r.body()).contains("invalid_request").contains("not the provider\u2019s");
        }
        assertThat(begun.browser().get("api/locks").statusCode())
                .as("still logged in after the refused tokens")
                .isEqualTo(200);

        String token =
                logoutToken(TestProvider.ISSUER_ID, subject, TestProvider.CLIENT_ID, logoutClaims);
        HttpResponse<String> out =
                provider.postForm("oidc/backchannel-logout", Map.of("logout_token", token));
        assertThat(out.statusCode()).as(out.body()).isEqualTo(200);
        await("the session ends within a second")
                .atMost(Duration.ofSeconds(1))
                .until(() -> begun.browser().get("api/locks").statusCode() == 401);
        assertThat(
                        new Browser(URI.create(base.toString()))
                                .basic("ada", "demo")
                                .get("api/locks/configurator:" + record)
                                .statusCode())
                .as("what the session held is free")
                .isEqualTo(404);
        HttpResponse<String> again =
                provider.postForm("oidc/backchannel-logout", Map.of("logout_token", token));
        assertThat(again.statusCode()).as("the same token twice").isEqualTo(400);
    }

    /** A logout token signed by the test provider's issuer {@code issuerId}. */
    private static String logoutToken(
            String issuerId, String subject, String audience, Map<String, Object> claims) {
        return TestProvider.server()
                .issueToken(
                        issuerId,
                        TestProvider.CLIENT_ID,
                        new DefaultOAuth2TokenCallback(
                                issuerId, subject, "logout+jwt", List.of(audience), claims, 120))
                .serialize();
    }

    /** The login page's button, then the provider's page filled in as a person would. */
    private void throughTheProvider(ChromeDriver browser, String subject, String claims) {
        browser.get(base + "login.xhtml");
        browser.findElement(By.cssSelector("[data-testid=login-with-provider]")).click();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !browser.findElements(By.name("username")).isEmpty());
        browser.findElement(By.name("username")).sendKeys(subject);
        WebElement area = browser.findElement(By.name("claims"));
        area.clear();
        area.sendKeys(claims);
        browser.findElement(By.cssSelector("input[type=submit]")).click();
    }

    private HttpCookie sessionCookie(String value) {
        HttpCookie cookie = new HttpCookie("JSESSIONID", value);
        cookie.setPath("/");
        cookie.setVersion(0);
        return cookie;
    }

    private static long drafts(String login) throws java.sql.SQLException {
        try (Connection c = TestDatabase.connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select count(*) from edit_draft where user_login = ?")) {
            ps.setString(1, login);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * The hostile answers, each refused with its sentence: nobody is created, no change is noted,
     * and the browser is not logged in.
     */
    @Test
    void everyAnswerThatIsNotTheProvidersOwnForThisBrowserIsRefusedAndCreatesNobody()
            throws Exception {
        String suffix = Long.toString(System.nanoTime(), 36);

        // a wrong state: the provider's answer to a sign-in begun elsewhere
        Begun begun = begin();
        URI answer =
                signIn(begun, "sub-a" + suffix, claims("ann" + suffix, "Ann", "editlock-editors"));
        refused(
                begun.browser(),
                answer.toString().replaceAll("state=[^&]+", "state=made-up"),
                400,
                "was not started in this browser");
        refused(
                new Browser(URI.create(base.toString())).followRedirects(false),
                answer.toString(),
                400,
                "was not started in this browser");

        // a browser keeps its five newest sign-ins: the sixth begun forgets the first
        Browser tabs = new Browser(URI.create(base.toString())).followRedirects(false);
        List<Begun> six = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            six.add(ProviderPages.begin(tabs));
        }
        refused(
                tabs,
                signIn(
                                six.get(0),
                                "sub-g" + suffix,
                                claims("gus" + suffix, "Gus", "editlock-editors"))
                        .toString(),
                400,
                "was not started in this browser");
        HttpResponse<String> fifthNewest =
                tabs.get(
                        signIn(
                                        six.get(1),
                                        "sub-g" + suffix,
                                        claims("gus" + suffix, "Gus", "editlock-editors"))
                                .toString());
        assertThat(fifthNewest.statusCode()).as(fifthNewest.body()).isEqualTo(302);

        // the same answer twice: the first logs in, the second is refused
        HttpResponse<String> first = begun.browser().get(answer.toString());
        assertThat(first.statusCode()).as(first.body()).isEqualTo(302);
        Map<String, Long> before = people();
        HttpResponse<String> replayed = begun.browser().get(answer.toString());
        assertThat(replayed.statusCode()).isEqualTo(400);
        assertThat(replayed.body()).contains("was used already");
        assertThat(people()).isEqualTo(before);
        // the used code under a new sign-in's state
        Begun other = begin();
        String newState = query(other.authorize()).get("state");
        refused(
                other.browser(),
                answer.toString().replaceAll("state=[^&]+", "state=" + newState),
                400,
                "nobody was logged in");

        // an ID token made for another client
        Begun forOther = begin();
        refused(
                forOther.browser(),
                signIn(
                                forOther,
                                "sub-b" + suffix,
                                claims("bob" + suffix, "Bob", "editlock-editors")
                                        .replaceFirst("\\{", "{\"aud\":\"another-app\","))
                        .toString(),
                400,
                "made for another application");

        // an answer naming another issuer (a mix-up: RFC 9207's iss)
        Begun mixUp = begin();
        refused(
                mixUp.browser(),
                signIn(mixUp, "sub-c" + suffix, claims("cid" + suffix, "Cid", "editlock-editors"))
                        + "&iss="
                        + java.net.URLEncoder.encode(
                                "http://127.0.0.1:9/evil", StandardCharsets.UTF_8),
                400,
                "did not come from the provider Editlock trusts");

        // no role claim at all, and groups Editlock does not map
        Begun noRole = begin();
        refused(
                noRole.browser(),
                signIn(
                                noRole,
                                "sub-d" + suffix,
                                "{\"preferred_username\":\"dee" + suffix + "\",\"name\":\"Dee\"}")
                        .toString(),
                403,
                "none of Editlock\u2019s roles");
        Begun unmapped = begin();
        refused(
                unmapped.browser(),
                signIn(unmapped, "sub-e" + suffix, claims("eve" + suffix, "Eve", "marketing"))
                        .toString(),
                403,
                "none of Editlock\u2019s roles");

        // a first login that would take the login of someone who logs in with a password
        Begun taken = begin();
        refused(
                taken.browser(),
                signIn(taken, "sub-f" + suffix, claims("sara", "Not Sara", "editlock-admins"))
                        .toString(),
                409,
                "already a person who logs in as sara");
    }

    /**
     * Refused: {@code status}, a page that says {@code says}, nobody created or changed, and the
     * browser not logged in.
     */
    private void refused(Browser browser, String answer, int status, String says) throws Exception {
        Map<String, Long> before = people();
        HttpResponse<String> r = browser.get(answer);
        assertThat(r.statusCode()).as(answer + " → " + r.body()).isEqualTo(status);
        assertThat(r.body())
                .contains(says)
                .doesNotContain("Exception")
                .as("the page repeats neither the code nor the state")
                .doesNotContain("code=")
                .doesNotContain("state=");
        assertThat(people()).as("nobody created, nothing changed").isEqualTo(before);
        assertThat(browser.get("api/locks").statusCode()).as("not logged in").isEqualTo(401);
    }

    private static Map<String, Long> people() throws Exception {
        Map<String, Long> counts = new LinkedHashMap<>();
        try (Connection c = TestDatabase.connect();
                var s = c.createStatement()) {
            for (String table : List.of("app_user", "app_user_role", "person_change")) {
                try (ResultSet rs = s.executeQuery("select count(*) from " + table)) {
                    rs.next();
                    counts.put(table, rs.getLong(1));
                }
            }
        }
        return counts;
    }

    private static List<String> person(String login) throws Exception {
        try (Connection c = TestDatabase.connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select display_name, oidc_issuer, oidc_subject,"
                                        + " case when password_hash is null then 'no password'"
                                        + " else 'a password' end,"
                                        + " (select string_agg(role, ',' order by role)"
                                        + " from app_user_role r where r.login = u.login)"
                                        + " from app_user u where login = ?")) {
            ps.setString(1, login);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("a person who logs in as " + login).isTrue();
                return List.of(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5));
            }
        }
    }

    private static List<String> changes(String login) throws Exception {
        try (Connection c = TestDatabase.connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select change || ' by ' || changed_by || ': ' || detail"
                                        + " from person_change where login = ? order by id")) {
            ps.setString(1, login);
            try (ResultSet rs = ps.executeQuery()) {
                List<String> all = new java.util.ArrayList<>();
                while (rs.next()) {
                    all.add(rs.getString(1));
                }
                return all;
            }
        }
    }
}
