package com.editlock.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium for browser tests, from Debian's packages ({@code apt-get install chromium chromium-driver}).
 * Without it the browser tests are skipped with a loud message, unless {@code EDITLOCK_REQUIRE_BROWSER=true} (CI sets
 * it), which makes a missing browser a failure. Selenium Manager never runs: both binaries are named explicitly.
 */
final class Chromium {

    private static final Path BROWSER = Path.of(env("CHROMIUM_BIN", "/usr/bin/chromium"));
    private static final Path DRIVER = Path.of(env("CHROMEDRIVER_BIN", "/usr/bin/chromedriver"));

    private Chromium() {
    }

    /** Skips (or, when required, fails) the calling test when no Chromium is installed. */
    static void require() {
        boolean present = Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
        if (present) {
            return;
        }
        String message = "BROWSER TESTS NOT RUN: no " + (Files.isExecutable(BROWSER) ? DRIVER : BROWSER)
                + ". Install them with: apt-get install -y chromium chromium-driver";
        System.err.println("\n" + "!".repeat(message.length()) + "\n" + message + "\n" + "!".repeat(message.length()));
        if (Boolean.parseBoolean(System.getenv("EDITLOCK_REQUIRE_BROWSER"))) {
            Assertions.fail(message);
        }
        Assumptions.abort(message);
    }

    static ChromeDriver start() {
        require();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic", "--window-size=1200,1000");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return driver;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
