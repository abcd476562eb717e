package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import jakarta.json.Json;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;

/** The screens in a real (headless) Chromium: what a person sees and what the page's script does. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class ScreensInBrowserIT {

    @Deployment(testable = false)
    public static WebArchive deployment() {
        return Deployments.editlock();
    }

    @ArquillianResource
    URL base;

    private ChromeDriver sara;
    private ChromeDriver omar;

    @BeforeEach
    void browsers() {
        Chromium.require();
        sara = Chromium.start();
        omar = Chromium.start();
    }

    @AfterEach
    void close() {
        if (sara != null) {
            sara.quit();
        }
        if (omar != null) {
            omar.quit();
        }
    }

    @Test
    void anOpenEditorKeepsItsLockAliveAndTheOtherSeesWhoHoldsIt() {
        login(sara, "sara");
        sara.get(base + "configurator.xhtml?id=2");
        assertThat(testId(sara, "lock-status")).isEqualTo("You are editing");
        Browser ada = new Browser(URI.create(base.toString())).basic("ada", "demo");
        Instant firstExpiry = expiresAt(ada);

        // Sara keeps working. Her page's heartbeat (every third of the shorter of lease and session timeout, checked
        // every 5 s) moves the lease on, and keeps her session (10 s timeout here) alive past its timeout.
        sara.findElement(By.id("edit:description")).sendKeys(" More detail.");
        await().atMost(Duration.ofSeconds(TestSettings.SESSION_TIMEOUT_SECONDS + 15)).pollInterval(Duration.ofSeconds(1))
                .until(() -> expiresAt(ada).isAfter(firstExpiry));
        await("the lock outlives the session timeout while Sara works")
                .during(Duration.ofSeconds(TestSettings.SESSION_TIMEOUT_SECONDS + 2)).atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofSeconds(1)).until(() -> expiresAt(ada).isAfter(firstExpiry));

        login(omar, "omar");
        omar.get(base + "configurator.xhtml?id=2");
        assertThat(testId(omar, "lock-status")).startsWith("Being edited by Sara since");
        assertThat(omar.findElements(By.cssSelector("[data-testid=edit-form]"))).isEmpty();

        sara.findElement(By.cssSelector("[data-testid=done]")).click();
        await().atMost(Duration.ofSeconds(10)).until(() -> sara.getPageSource().contains("no longer editing"));
        omar.navigate().refresh();
        assertThat(testId(omar, "lock-status")).isEqualTo("You are editing");
        omar.findElement(By.cssSelector("[data-testid=done]")).click();
        assertThat(omar.getPageSource()).contains("no longer editing");
    }

    private void login(WebDriver browser, String user) {
        browser.get(base + "login.xhtml");
        browser.findElement(By.id("login:username")).sendKeys(user);
        browser.findElement(By.id("login:password")).sendKeys("demo");
        browser.findElement(By.cssSelector("[data-testid=login]")).click();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !browser.findElements(By.cssSelector("[data-testid=logout]")).isEmpty());
    }

    private static String testId(WebDriver browser, String id) {
        return browser.findElement(By.cssSelector("[data-testid=" + id + "]")).getText().trim();
    }

    private static Instant expiresAt(Browser admin) {
        var response = admin.get("api/locks/configurator:2");
        assertThat(response.statusCode()).as("Sara's lock is held; history: %s",
                admin.get("api/locks/events?resource=configurator:2&limit=5").body()).isEqualTo(200);
        return Instant.parse(Json.createReader(new StringReader(response.body())).readObject().getString("expiresAt"));
    }
}
