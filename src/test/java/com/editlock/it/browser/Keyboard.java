package com.editlock.it.browser;

import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.interactions.Actions;

/** A person without a mouse: Tab to move, keys to type and press, nothing clicked. */
public final class Keyboard {

    private Keyboard() {}

    /** The {@code data-testid} (else the id) of the element that has the focus; empty if none. */
    public static String focused(WebDriver browser) {
        Object id =
                ((JavascriptExecutor) browser)
                        .executeScript(
                                "var e = document.activeElement; return e ? (e.getAttribute("
                                        + "'data-testid') || e.id || '') : '';");
        return String.valueOf(id);
    }

    /** Presses Tab until the element marked {@code data-testid=id} has the focus (at most 80). */
    public static void tabTo(WebDriver browser, String id) {
        for (int presses = 0; presses < 80; presses++) {
            if (id.equals(focused(browser))) {
                return;
            }
            press(browser, Keys.TAB);
        }
        throw new AssertionError(
                "Tab never reached " + id + " (ended at " + focused(browser) + ")");
    }

    /**
     * Presses Tab until the element marked {@code data-testid=id} inside the row marked {@code
     * data-login=login} has the focus (at most 80): a button every row of a list has.
     */
    public static void tabTo(WebDriver browser, String id, String login) {
        String script =
                "var e = document.activeElement; var row = e && e.closest('[data-login]');"
                        + " return (row ? row.getAttribute('data-login') : '') + '/'"
                        + " + (e ? e.getAttribute('data-testid') : '');";
        for (int presses = 0; presses < 80; presses++) {
            if ((login + "/" + id).equals(((JavascriptExecutor) browser).executeScript(script))) {
                return;
            }
            press(browser, Keys.TAB);
        }
        throw new AssertionError(
                "Tab never reached "
                        + id
                        + " of "
                        + login
                        + " (ended at "
                        + focused(browser)
                        + ")");
    }

    public static void press(WebDriver browser, Keys key) {
        new Actions(browser).sendKeys(key).perform();
    }

    /** Types into whatever has the focus. */
    public static void type(WebDriver browser, String text) {
        new Actions(browser).sendKeys(text).perform();
    }
}
