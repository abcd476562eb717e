package com.editlock.it.browser;

import static org.awaitility.Awaitility.await;

import java.net.URL;
import java.time.Duration;
import java.util.List;
import org.awaitility.core.ConditionFactory;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;

/**
 * What browser tests do on Editlock's pages: log in, read an element, listen to the live regions.
 */
public final class Pages {

    private Pages() {}

    /** Logs in through the login page with the demo password. */
    public static void login(WebDriver browser, URL base, String user) {
        login(browser, base, user, "demo");
    }

    public static void login(WebDriver browser, URL base, String user, String password) {
        browser.get(base + "login.xhtml");
        submitLogin(browser, user, password);
    }

    /** Fills in the login page the browser shows and waits until the user is logged in. */
    public static void submitLogin(WebDriver browser, String user, String password) {
        browser.findElement(By.id("login:username")).sendKeys(user);
        browser.findElement(By.id("login:password")).sendKeys(password);
        browser.findElement(By.cssSelector("[data-testid=login]")).click();
        await().atMost(Duration.ofSeconds(10))
                .until(
                        () ->
                                !browser.findElements(By.cssSelector("[data-testid=logout]"))
                                        .isEmpty());
    }

    /**
     * The text of the element marked {@code data-testid=id}, read again if the page re-rendered it
     * (a live update) or went to a new document while it was being read.
     */
    public static String testId(WebDriver browser, String id) {
        for (int attempt = 0; ; attempt++) {
            try {
                return browser.findElement(By.cssSelector("[data-testid='" + id + "']"))
                        .getText()
                        .trim();
            } catch (WebDriverException e) {
                if (!replaced(e) || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    /**
     * Whether {@code e} says the element found is no longer in the page: stale, or — Chromium's
     * driver, when the document was replaced between the find and the read — "Node with given id
     * does not belong to the document".
     */
    private static boolean replaced(WebDriverException e) {
        return e instanceof StaleElementReferenceException
                || String.valueOf(e.getMessage()).contains("does not belong to the document");
    }

    /**
     * Waits for a page that goes to a new document by itself (a hand-over, "open it when free"):
     * between the two documents no element is there, which is "not yet", not a failure.
     */
    public static ConditionFactory whileItNavigates(String alias, Duration atMost) {
        return await(alias)
                .atMost(atMost)
                .ignoreException(NoSuchElementException.class)
                .ignoreException(StaleElementReferenceException.class);
    }

    /** Clicks the element marked {@code data-testid=id}, again if a live update replaced it. */
    public static void click(WebDriver browser, String id) {
        await().atMost(Duration.ofSeconds(5))
                .ignoreException(StaleElementReferenceException.class)
                .until(
                        () -> {
                            browser.findElement(By.cssSelector("[data-testid='" + id + "']"))
                                    .click();
                            return true;
                        });
    }

    /**
     * Records what the page's two announcers say from now on, each line prefixed by how a screen
     * reader treats the region — read from its {@code aria-live} (or its role: {@code alert} is
     * assertive, {@code status} polite), never assumed from its id: an announcer that lost its
     * attributes is heard as "off" and fails the test that expects it.
     */
    public static void recordAnnouncements(WebDriver browser) {
        ((JavascriptExecutor) browser)
                .executeScript(
                        """
                        window.announced = [];
                        ['announce', 'announce-urgent'].forEach(function (id) {
                            var region = document.getElementById(id);
                            var role = region.getAttribute('role');
                            var live = region.getAttribute('aria-live')
                                || (role === 'alert' ? 'assertive' : role === 'status' ? 'polite' : 'off');
                            new MutationObserver(function () {
                                window.announced.push(live + ': ' + region.textContent);
                            }).observe(region, {childList: true, characterData: true, subtree: true});
                        });""");
    }

    /**
     * What the live regions said since {@link #recordAnnouncements}, each prefixed by its
     * politeness.
     */
    public static List<String> announced(WebDriver browser) {
        return ((List<?>)
                        ((JavascriptExecutor) browser)
                                .executeScript("return window.announced.slice();"))
                .stream().map(String::valueOf).toList();
    }
}
