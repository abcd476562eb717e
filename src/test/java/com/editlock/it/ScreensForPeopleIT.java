package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.editlock.it.browser.Axe;
import com.editlock.it.browser.Browser;
import com.editlock.it.browser.Chromium;
import com.editlock.it.browser.Keyboard;
import com.editlock.it.browser.Pages;
import com.editlock.it.node.Deployments;
import jakarta.json.Json;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The screens for the people who use them: no WCAG 2.1 AA violation on any page in any state
 * (axe-core run inside Chromium), the warning before an away editor's lock stops being kept, and
 * the keyboard alone. Deployed with an idle timeout of 65 s, so the minute's warning starts after 5
 * s without a key or a click.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class ScreensForPeopleIT {

    static final int IDLE_TIMEOUT_SECONDS = 65;

    @Deployment(testable = false)
    public static WebArchive deployment() {
        return Deployments.editlock()
                .addAsResource(
                        new StringAsset(
                                "locks.idle.timeout.seconds=" + IDLE_TIMEOUT_SECONDS + "\n"),
                        "META-INF/microprofile-config.properties");
    }

    @ArquillianResource URL base;

    private final List<ChromeDriver> opened = new ArrayList<>();

    /** A browser reading {@code language} in the time zone {@code zone}, quit after the test. */
    private ChromeDriver browser(String language, String zone) {
        ChromeDriver driver = Chromium.start(language, zone);
        opened.add(driver);
        return driver;
    }

    /**
     * Each test starts and ends with no lock held: the suites share a database, and another suite's
     * nodes may have left locks behind (a sub-page's lock keeps its whole record from being
     * edited).
     */
    @BeforeEach
    void needsABrowserAndNoLocks() {
        Chromium.require();
        releaseAll();
    }

    @AfterEach
    void close() {
        opened.forEach(Chromium::quit);
        opened.clear();
        releaseAll();
    }

    private void releaseAll() {
        Browser admin = new Browser(URI.create(base.toString())).basic("ada", "demo");
        for (int round = 0; round < 20; round++) { // the list is paged: 500 a page
            List<String> held =
                    Json.createReader(new StringReader(admin.get("api/locks?limit=500").body()))
                            .readArray()
                            .stream()
                            .map(l -> l.asJsonObject().getString("resource"))
                            .toList();
            if (held.isEmpty()) {
                return;
            }
            held.forEach(r -> admin.delete("api/locks/" + r + "?reason=test%20clean-up"));
        }
    }

    /**
     * The people screen as an admin uses it. Ada adds Ivy as an editor (the password Editlock made
     * is shown once); Ivy logs in with it and edits a record; Ada gives her {@code take-over} and
     * Ivy takes a record from Sara with a reason. Then Dora, editing with what she typed unsaved,
     * is disabled on the screen with a reason: her page says who released her record and why, the
     * record is free, what she typed is kept as her draft, her API token is refused, and a new
     * login by her fails.
     */
    @Test
    void anAdminAddsAPersonAndDisablesAnotherOnThePeopleScreen() throws Exception {
        String suffix = Long.toString(System.nanoTime(), 36);
        String ivyLogin = "ivy" + suffix;
        ChromeDriver ada = browser("en-US", "Europe/London");
        Pages.login(ada, base, "ada");
        Pages.click(ada, "admin-people");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> !ada.findElements(By.cssSelector("[data-testid=people]")).isEmpty());
        By addForm = By.cssSelector("[data-testid=add-person]");
        ada.findElement(addForm)
                .findElement(By.cssSelector("[data-testid=person-login]"))
                .sendKeys(ivyLogin);
        ada.findElement(addForm)
                .findElement(By.cssSelector("[data-testid=person-name]"))
                .sendKeys("Ivy Park");
        assertThat(
                        ada.findElement(addForm)
                                .findElement(By.cssSelector("[data-testid=person-role-editor]"))
                                .isSelected())
                .as("a new person is an editor unless the admin says otherwise")
                .isTrue();
        ada.findElement(addForm).findElement(By.cssSelector("[data-testid=save-person]")).click();
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                !ada.findElements(By.cssSelector("[data-testid=new-password]"))
                                        .isEmpty());
        String password =
                ada.findElement(By.cssSelector("[data-testid=new-password]")).getAttribute("value");
        assertThat(password).hasSize(20);
        By ivysRow = By.cssSelector("[data-testid=person-row][data-login=" + ivyLogin + "]");
        assertThat(ada.findElement(ivysRow).getText()).contains("Ivy Park");

        ChromeDriver ivy = browser("en-US", "Europe/London");
        Pages.login(ivy, base, ivyLogin, password);
        long ivysRecord = com.editlock.it.node.TestDatabase.newConfigurator("Ivy's record");
        ivy.get(base + "configurator.xhtml?id=" + ivysRecord);
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                !ivy.findElements(By.cssSelector("[data-testid=edit-form]"))
                                        .isEmpty());
        Pages.click(ivy, "done");

        URI at = URI.create(base.toString());
        long sarasRecord = com.editlock.it.node.TestDatabase.newConfigurator("Sara's record");
        String saras = "configurator:" + sarasRecord;
        assertThat(
                        new Browser(at)
                                .basic("sara", "demo")
                                .postJson("api/locks", "{\"resource\":\"" + saras + "\"}")
                                .statusCode())
                .isEqualTo(201);
        ada.findElement(ivysRow)
                .findElement(By.cssSelector("[data-testid=person-role-take-over]"))
                .click();
        ada.findElement(ivysRow).findElement(By.cssSelector("[data-testid=save-person]")).click();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> ada.getPageSource().contains("now has the roles"));
        Browser ivysScript = new Browser(at).basic(ivyLogin, password);
        var took =
                ivysScript.postJson(
                        "api/locks/" + saras + "/take-over", "{\"reason\":\"Sara is on leave\"}");
        assertThat(took.statusCode()).as(took.body()).isEqualTo(200);
        assertThat(ivysScript.delete("api/locks/" + saras).statusCode()).isEqualTo(204);

        String doraLogin = "dora" + suffix;
        Browser adaScript = new Browser(at).basic("ada", "demo");
        var added =
                adaScript.postJson(
                        "api/people",
                        "{\"login\":\""
                                + doraLogin
                                + "\",\"name\":\"Dora Leaves\","
                                + "\"roles\":[\"editor\"]}");
        assertThat(added.statusCode()).isEqualTo(201);
        String dorasPassword =
                Json.createReader(new StringReader(added.body()))
                        .readObject()
                        .getString("password");
        Browser dorasScript = new Browser(at).basic(doraLogin, dorasPassword);
        String token =
                Json.createReader(
                                new StringReader(
                                        dorasScript
                                                .postJson("api/tokens", "{\"name\":\"import\"}")
                                                .body()))
                        .readObject()
                        .getString("token");
        ChromeDriver dora = browser("en-US", "Europe/London");
        Pages.login(dora, base, doraLogin, dorasPassword);
        long dorasRecord = com.editlock.it.node.TestDatabase.newConfigurator("Dora's record");
        dora.get(base + "configurator.xhtml?id=" + dorasRecord);
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                !dora.findElements(By.cssSelector("[data-testid=edit-form]"))
                                        .isEmpty());
        dora.findElement(By.id("edit:description")).sendKeys("Half-way through the prices");
        await("what Dora typed is her draft on the server")
                .atMost(Duration.ofSeconds(10))
                .until(() -> drafts(doraLogin) == 1);

        ada.get(base + "admin/people.xhtml");
        By dorasRow = By.cssSelector("[data-testid=person-row][data-login=" + doraLogin + "]");
        ada.findElement(dorasRow)
                .findElement(By.cssSelector("[data-testid=disable-person]"))
                .click();
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                !ada.findElements(By.cssSelector("[data-testid=disable-reason]"))
                                        .isEmpty());
        ada.findElement(By.cssSelector("[data-testid=disable-reason]"))
                .sendKeys("Left the company on Friday");
        Pages.click(ada, "confirm-disable");
        try {
            Pages.whileItNavigates(
                            "Dora's page says who released her record and why",
                            Duration.ofSeconds(5))
                    .until(
                            () ->
                                    dora
                                            .findElements(By.cssSelector("[data-testid=lock-lost]"))
                                            .stream()
                                            .anyMatch(
                                                    e ->
                                                            e.getText()
                                                                    .contains(
                                                                            "Left the company on Friday")));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(
                    "Dora's page did not say why her record was released; it is "
                            + dora.getCurrentUrl()
                            + " and says: "
                            + dora.findElement(By.tagName("body")).getText(),
                    e);
        }

        assertThat(adaScript.get("api/locks/configurator:" + dorasRecord).statusCode())
                .as("her record is free")
                .isEqualTo(404);
        assertThat(drafts(doraLogin)).as("what she typed is kept").isEqualTo(1);
        assertThat(new Browser(at).bearer(token).get("api/locks").statusCode())
                .as("her token")
                .isEqualTo(401);
        assertThat(ada.findElement(dorasRow).getText()).contains("Left the company on Friday");
        ChromeDriver again = browser("en-US", "Europe/London");
        again.get(base + "login.xhtml");
        again.findElement(By.id("login:username")).sendKeys(doraLogin);
        again.findElement(By.id("login:password")).sendKeys(dorasPassword);
        again.findElement(By.cssSelector("[data-testid=login]")).click();
        await("a new login by her is refused")
                .atMost(Duration.ofSeconds(10))
                .until(() -> again.getPageSource().contains("class=\"error\""));
        assertThat(again.getCurrentUrl()).contains("login");
    }

    private static long drafts(String login) throws java.sql.SQLException {
        try (var c = com.editlock.it.node.TestDatabase.connect();
                var ps =
                        c.prepareStatement(
                                "select count(*) from edit_draft where user_login = ?")) {
            ps.setString(1, login);
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * axe-core over every page in each of its states, in English (a reader in New York) and in
     * German (a reader in Berlin): login (also refused), not found, the list, API tokens, editing,
     * read-only, variables, freed, the dashboard with rows and its release dialog, force-released,
     * the empty dashboard, the history, the people screen and its disable dialog, the idle warning,
     * and the error pages (not allowed; a page that expired, with what was typed).
     */
    @Test
    void everyPageInEachOfItsStatesInEnglishAndGermanHasNoWcag21AaViolation() {
        Map<String, List<String>> found = new LinkedHashMap<>();
        sweep(found, "en-US", "America/New_York");
        sweep(found, "de-DE", "Europe/Berlin");
        assertThat(found)
                .as(
                        "WCAG 2.1 AA violations by page and state:\n%s",
                        found.entrySet().stream()
                                .map(e -> e.getKey() + "\n  " + String.join("\n  ", e.getValue()))
                                .collect(java.util.stream.Collectors.joining("\n")))
                .isEmpty();
    }

    private void sweep(Map<String, List<String>> found, String language, String zone) {
        ChromeDriver sara = browser(language, zone);
        ChromeDriver omar = browser(language, zone);
        ChromeDriver ada = browser(language, zone);
        String in = " [" + language + "]";
        sara.get(base + "login.xhtml");
        check(found, "login" + in, sara);
        sara.executeScript(
                "document.querySelector('main').insertAdjacentHTML('beforeend',"
                        + " '<input type=\"text\" id=\"planted\">')");
        assertThat(Axe.violations(sara))
                .as("the gate is seen to close: a field without a label is reported")
                .anyMatch(v -> v.startsWith("label ") && v.contains("#planted"));
        sara.get(base + "login.xhtml");
        sara.findElement(By.id("login:username")).sendKeys("sara");
        sara.findElement(By.id("login:password")).sendKeys("wrong");
        sara.findElement(By.cssSelector("[data-testid=login]")).click();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> sara.getPageSource().contains("class=\"error\""));
        check(found, "login refused" + in, sara);
        sara.get(base + "no-such-page.xhtml");
        check(found, "not found" + in, sara);

        Pages.login(sara, base, "sara");
        check(found, "configurators" + in, sara);
        sara.get(base + "tokens.xhtml");
        check(found, "API tokens" + in, sara);
        sara.get(base + "configurator.xhtml?id=3");
        assertThat(sara.findElements(By.cssSelector("[data-testid=edit-form]"))).isNotEmpty();
        check(found, "editing" + in, sara);

        Pages.login(omar, base, "omar");
        omar.get(base + "variables.xhtml?id=3");
        check(found, "variables, read-only" + in, omar);
        omar.get(base + "configurator.xhtml?view=true&id=3");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> !omar.findElements(By.cssSelector("[data-testid=notify]")).isEmpty());
        check(found, "read-only" + in, omar);
        shot(omar, language + "-read-only");

        Pages.click(sara, "done");
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                !omar.findElements(By.cssSelector("[data-testid=edit-now]"))
                                        .isEmpty());
        check(found, "freed" + in, omar);
        Pages.click(omar, "edit-now");
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                !omar.findElements(By.cssSelector("[data-testid=edit-form]"))
                                        .isEmpty());

        Pages.login(ada, base, "ada");
        ada.get(base + "admin/locks.xhtml");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> Pages.testId(ada, "lock-table").contains("Omar"));
        check(found, "dashboard with rows" + in, ada);
        shot(ada, language + "-dashboard");
        Pages.click(ada, "release-configurator:3");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> !ada.findElements(By.cssSelector("[data-testid=reason]")).isEmpty());
        check(found, "dashboard, release dialog" + in, ada);
        ada.findElement(By.cssSelector("[data-testid=reason]")).sendKeys("Audit");
        Pages.click(ada, "confirm-release");
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                !omar.findElements(By.cssSelector("[data-testid=lock-lost]"))
                                        .isEmpty());
        check(found, "force-released" + in, omar);
        shot(omar, language + "-force-released");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> !ada.findElements(By.cssSelector("[data-testid=no-locks]")).isEmpty());
        check(found, "dashboard, empty" + in, ada);
        Pages.click(ada, "open-history");
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                !ada.findElements(By.cssSelector("[data-testid=lock-history]"))
                                        .isEmpty());
        check(found, "history" + in, ada);
        shot(ada, language + "-history");
        Pages.click(ada, "admin-people");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> !ada.findElements(By.cssSelector("[data-testid=people]")).isEmpty());
        check(found, "people" + in, ada);
        ada.findElement(
                        By.cssSelector(
                                "[data-testid=person-row][data-login=omar]"
                                        + " [data-testid=disable-person]"))
                .click();
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                !ada.findElements(By.cssSelector("[data-testid=disable-reason]"))
                                        .isEmpty());
        check(found, "people, disable dialog" + in, ada);
        Pages.click(ada, "cancel-disable");
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                ada.findElements(By.cssSelector("[data-testid=disable-reason]"))
                                        .isEmpty());

        omar.get(base + "configurator.xhtml?id=3");
        await("the idle warning, after 5 s without a key or a click")
                .atMost(Duration.ofSeconds(15))
                .until(
                        () ->
                                omar.findElement(By.cssSelector("[data-testid=idle-warning]"))
                                        .isDisplayed());
        check(found, "idle warning" + in, omar);
        Pages.click(omar, "done");
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                omar.findElements(By.cssSelector("[data-testid=edit-form]"))
                                        .isEmpty());

        boolean german = language.startsWith("de");
        omar.get(base + "admin/locks.xhtml");
        assertThat(omar.findElement(By.tagName("h1")).getText())
                .isEqualTo(german ? "Nicht erlaubt" : "Not allowed");
        assertThat(Pages.testId(omar, "error-message"))
                .startsWith(
                        german
                                ? "Diese Seite ist für Administratoren."
                                : "This page is for administrators.");
        assertThat(omar.findElement(By.tagName("html")).getAttribute("lang"))
                .isEqualTo(language.substring(0, 2));
        assertThat(
                        omar.findElements(
                                By.cssSelector(
                                        "[data-testid=lang-" + (german ? "en" : "de") + "]")))
                .as("the language can be switched on an error page too")
                .isNotEmpty();
        check(found, "error: not allowed" + in, omar);

        // Sara may have been idle longer than a test session lives (10 s without a request of
        // hers): a session of her own, whatever became of the old one
        sara.manage().deleteAllCookies();
        Pages.login(sara, base, "sara");
        sara.get(base + "configurator.xhtml?id=1");
        try {
            await().atMost(Duration.ofSeconds(5))
                    .until(
                            () ->
                                    !sara.findElements(By.cssSelector("[data-testid=edit-form]"))
                                            .isEmpty());
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(
                    "configurator 1 did not open for editing; the page says: "
                            + sara.findElement(By.tagName("main")).getText(),
                    e);
        }
        sara.findElement(By.id("edit:description")).sendKeys(" Typed before the page expired.");
        // a view state the server cannot restore, as after a restart or a session that ended
        sara.executeScript(
                "document.querySelectorAll('input[name=\"jakarta.faces.ViewState\"]')"
                        + ".forEach(i => i.value = 'stateless')");
        Pages.click(sara, "save");
        await().atMost(Duration.ofSeconds(10))
                .until(
                        () ->
                                !sara.findElements(By.cssSelector("[data-testid=typed-values]"))
                                        .isEmpty());
        assertThat(sara.findElement(By.tagName("h1")).getText())
                .isEqualTo(german ? "Diese Seite ist abgelaufen" : "This page has expired");
        assertThat(Pages.testId(sara, "typed-values"))
                .startsWith(german ? "Ihre Eingaben (nicht gespeichert)" : "What you typed");
        assertThat(
                        sara
                                .findElements(By.cssSelector("[data-testid=typed-values] textarea"))
                                .stream()
                                .map(t -> t.getAttribute("value")))
                .anyMatch(v -> v.endsWith("Typed before the page expired."));
        check(found, "error: page expired, what was typed" + in, sara);
        Browser admin = new Browser(URI.create(base.toString())).basic("ada", "demo");
        await("the lock of the page that expired is let go")
                .atMost(Duration.ofSeconds(30))
                .until(() -> !admin.get("api/locks").body().contains("configurator:1"));
        Browser author = new Browser(URI.create(base.toString())).basic("sara", "demo");
        author.delete("api/drafts/configurator:1"); // what she typed was kept as her draft
    }

    /**
     * A German reader in Berlin and an English one in New York: each reads their own language, the
     * times in their own zone and form, the record by its name and the people by theirs (no key, no
     * login on an editor's page), why the record became free, and the history in words; the
     * language can be switched on any page and stays switched.
     */
    @Test
    void eachReaderSeesTheirLanguageAndClockAndNamesNeverKeysOrLogins() {
        ChromeDriver sara = browser("de-DE", "Europe/Berlin");
        ChromeDriver omar = browser("en-US", "America/New_York");
        ChromeDriver ada = browser("de-DE", "Europe/Berlin");
        Pages.login(sara, base, "sara");
        sara.get(base + "configurator.xhtml?id=4");
        assertThat(Pages.testId(sara, "lock-status")).isEqualTo("Sie bearbeiten");
        Browser admin = new Browser(URI.create(base.toString())).basic("ada", "demo");
        java.time.Instant since =
                java.time.Instant.parse(
                        Json.createReader(
                                        new StringReader(
                                                admin.get("api/locks/configurator:4").body()))
                                .readObject()
                                .getString("acquiredAt"));

        Pages.login(omar, base, "omar");
        omar.get(base + "configurator.xhtml?view=true&id=4");
        assertThat(Pages.testId(omar, "lock-status"))
                .startsWith("Being edited by Sara since " + clock(since, "en", "America/New_York"))
                .as("a 12-hour clock")
                .containsPattern("\\d:\\d\\d\\h[AP]M");
        Pages.login(ada, base, "ada");
        ada.get(base + "configurator.xhtml?view=true&id=4");
        assertThat(Pages.testId(ada, "lock-status"))
                .startsWith(
                        "Wird seit "
                                + clock(since, "de", "Europe/Berlin")
                                + " von Sara bearbeitet");

        for (ChromeDriver editor : List.of(sara, omar)) {
            for (String page :
                    List.of("configurators.xhtml", "configurator.xhtml?view=true&id=4")) {
                if (editor == sara && page.startsWith("configurator.")) {
                    continue; // Sara's editing tab stays open
                }
                editor.switchTo().newWindow(org.openqa.selenium.WindowType.TAB);
                editor.get(base + page);
                String text = editor.findElement(By.tagName("body")).getText();
                assertThat(text)
                        .as("%s as %s reads it", page, editor == sara ? "Sara" : "Omar")
                        .doesNotContain("configurator:")
                        .doesNotContainPattern("\\b(sara|omar|ada)\\b");
                editor.close();
                editor.switchTo().window(editor.getWindowHandles().iterator().next());
            }
        }

        Pages.click(sara, "done");
        await("Omar reads why it is free, in English")
                .atMost(Duration.ofSeconds(5))
                .until(() -> Pages.testId(omar, "lock-status").startsWith("Sara finished"));
        await("Ada reads it in German")
                .atMost(Duration.ofSeconds(5))
                .until(() -> Pages.testId(ada, "lock-status").startsWith("Sara ist fertig"));

        ada.get(base + "admin/history.xhtml");
        String history = Pages.testId(ada, "lock-history");
        assertThat(history)
                .contains("Sara hat mit der Bearbeitung begonnen")
                .contains("Sara ist fertig")
                .contains("Savings")
                .contains("MEZ")
                .doesNotContain("ACQUIRED")
                .doesNotContain("RELEASED");

        Pages.click(omar, "lang-de");
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                !omar.findElements(By.cssSelector("[data-testid=edit-now]"))
                                        .isEmpty());
        assertThat(Pages.testId(omar, "edit-now")).isEqualTo("Jetzt bearbeiten");
        omar.get(base + "configurators.xhtml");
        assertThat(omar.findElement(By.tagName("h1")).getText())
                .as("the language picked stays picked")
                .isEqualTo("Konfiguratoren");
        assertThat(omar.findElement(By.tagName("html")).getAttribute("lang")).isEqualTo("de");
    }

    /** A time of day as a reader in {@code zone} who reads {@code language} writes it. */
    private static String clock(java.time.Instant at, String language, String zone) {
        return java.time.format.DateTimeFormatter.ofLocalizedTime(
                        java.time.format.FormatStyle.SHORT)
                .withLocale(java.util.Locale.forLanguageTag(language))
                .withZone(java.time.ZoneId.of(zone))
                .format(at);
    }

    /**
     * The keyboard alone: Omar asks to be told when the record is free, Ada force-releases it from
     * the dashboard with a reason and confirms, every step by Tab, typing and Enter.
     */
    @Test
    void omarAsksToBeToldAndAdaForceReleasesWithAReasonByKeyboardAlone() {
        ChromeDriver sara = browser(null, null);
        ChromeDriver omar = browser(null, null);
        ChromeDriver ada = browser(null, null);
        Pages.login(sara, base, "sara");
        sara.get(base + "configurator.xhtml?id=1");
        assertThat(Pages.testId(sara, "lock-status")).isEqualTo("You are editing");

        Pages.login(omar, base, "omar");
        omar.get(base + "configurator.xhtml?view=true&id=1");
        Keyboard.tabTo(omar, "notify");
        Keyboard.press(omar, Keys.ENTER);
        assertThat(Pages.testId(omar, "notify")).isEqualTo("You will be told when it is free");

        Pages.login(ada, base, "ada");
        ada.get(base + "admin/locks.xhtml");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> Pages.testId(ada, "lock-table").contains("Sara"));
        Keyboard.tabTo(ada, "release-configurator:1");
        Keyboard.press(ada, Keys.ENTER);
        await("the confirmation opens with the focus in its reason")
                .atMost(Duration.ofSeconds(5))
                .until(() -> "reason".equals(Keyboard.focused(ada)));
        Keyboard.type(ada, "Needed for the audit");
        Keyboard.tabTo(ada, "confirm-release");
        Keyboard.press(ada, Keys.ENTER);

        await("Sara is told who and why")
                .atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                !sara.findElements(By.cssSelector("[data-testid=lock-lost]"))
                                        .isEmpty());
        assertThat(Pages.testId(sara, "lock-lost"))
                .startsWith("Ada released your lock: Needed for the audit.");
        await("Omar is told it is free, and why")
                .atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                omar.findElement(By.cssSelector("[data-testid=notify-message]"))
                                        .isDisplayed());
        assertThat(Pages.testId(omar, "notify-message"))
                .isEqualTo("Ada released Sara's lock: Needed for the audit — you can edit it now.");
    }

    /**
     * The people screen by keyboard alone: Ada adds a person and then disables them with a reason,
     * every step by Tab, typing and Enter; the disable dialog opens with the focus in its reason.
     */
    @Test
    void anAdminAddsAndDisablesAPersonByKeyboardAlone() {
        String login = "aa" + Long.toString(System.nanoTime(), 36); // sorts first: a short walk
        ChromeDriver ada = browser(null, null);
        Pages.login(ada, base, "ada");
        ada.get(base + "admin/people.xhtml");
        Keyboard.tabTo(ada, "person-login");
        Keyboard.type(ada, login);
        Keyboard.tabTo(ada, "person-name");
        Keyboard.type(ada, "Kim Keys");
        Keyboard.tabTo(ada, "save-person");
        Keyboard.press(ada, Keys.ENTER);
        await("the new person's password is shown")
                .atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                !ada.findElements(By.cssSelector("[data-testid=new-password]"))
                                        .isEmpty());
        By row = By.cssSelector("[data-testid=person-row][data-login=" + login + "]");
        assertThat(ada.findElement(row).getText()).contains("Kim Keys");

        Keyboard.tabTo(ada, "disable-person", login);
        Keyboard.press(ada, Keys.ENTER);
        await("the dialog opens with the focus in its reason")
                .atMost(Duration.ofSeconds(5))
                .until(() -> "disable-reason".equals(Keyboard.focused(ada)));
        Keyboard.type(ada, "Moved to another team");
        Keyboard.tabTo(ada, "confirm-disable");
        Keyboard.press(ada, Keys.ENTER);
        await("the row says who disabled Kim and why")
                .atMost(Duration.ofSeconds(5))
                .ignoreExceptions()
                .until(() -> ada.findElement(row).getText().contains("Moved to another team"));
        assertThat(ada.findElement(row).findElements(By.cssSelector("[data-testid=enable-person]")))
                .isNotEmpty();
    }

    /** With {@code -Deditlock.screenshots=docs/screenshots}: the page as it looks now. */
    private static void shot(ChromeDriver browser, String name) {
        String dir = System.getProperty("editlock.screenshots");
        if (dir != null) {
            try {
                java.nio.file.Files.createDirectories(java.nio.file.Path.of(dir));
                java.nio.file.Files.write(
                        java.nio.file.Path.of(dir, "people-" + name + ".png"),
                        browser.getScreenshotAs(org.openqa.selenium.OutputType.BYTES));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    @Test
    void anAwayEditorSeesACountdownAKeyEndsAndKeepsWhatSheTypedWhenHerLockLapses() {
        ChromeDriver sara = browser(null, null);
        Pages.login(sara, base, "sara");
        sara.get(base + "configurator.xhtml?id=2");
        assertThat(Pages.testId(sara, "lock-status")).isEqualTo("You are editing");
        Pages.recordAnnouncements(sara);
        await("a minute before the lock stops being kept, the warning counts down")
                .atMost(Duration.ofSeconds(15))
                .until(
                        () ->
                                sara.findElement(By.cssSelector("[data-testid=idle-warning]"))
                                        .isDisplayed());
        assertThat(Pages.testId(sara, "idle-warning"))
                .matches(
                        "You seem to be away: your lock stops being kept in [1-6]?[0-9] s\\. Press a key or click to keep editing\\.");
        assertThat(Pages.announced(sara))
                .as("said once, assertively")
                .containsExactly(
                        "assertive: You seem to be away: your lock stops being kept in about a"
                                + " minute. Press a key or click to keep editing.");

        sara.findElement(By.id("edit:description")).sendKeys(" Typed before lunch.");
        await("a key ends the warning")
                .atMost(Duration.ofSeconds(5))
                .until(
                        () ->
                                !sara.findElement(By.cssSelector("[data-testid=idle-warning]"))
                                        .isDisplayed());

        await("without a key for the idle timeout, the lock is no longer kept")
                .atMost(Duration.ofSeconds(IDLE_TIMEOUT_SECONDS + 15))
                .until(() -> Pages.testId(sara, "idle-warning").startsWith("You have been away"));
        assertThat(Pages.testId(sara, "idle-warning")).contains("What you typed stays here");
        assertThat(sara.findElement(By.id("edit:description")).getAttribute("value"))
                .endsWith("Typed before lunch.");
    }

    private static void check(Map<String, List<String>> found, String state, ChromeDriver browser) {
        List<String> violations = Axe.violations(browser);
        if (!violations.isEmpty()) {
            found.put(state + " (" + browser.getCurrentUrl() + ")", violations);
        }
    }
}
