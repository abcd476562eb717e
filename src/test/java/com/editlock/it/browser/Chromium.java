package com.editlock.it.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium for browser tests, from Debian's packages ({@code apt-get install chromium
 * chromium-driver}). Without it the browser tests are skipped with a loud message, unless {@code
 * EDITLOCK_REQUIRE_BROWSER=true} (CI sets it), which makes a missing browser a failure. Selenium
 * Manager never runs: both binaries are named explicitly.
 */
public final class Chromium {

    private static final Path BROWSER = Path.of(env("CHROMIUM_BIN", "/usr/bin/chromium"));
    private static final Path DRIVER = Path.of(env("CHROMEDRIVER_BIN", "/usr/bin/chromedriver"));

    private Chromium() {}

    /** Skips (or, when required, fails) the calling test when no Chromium is installed. */
    public static void require() {
        boolean present = Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
        if (present) {
            return;
        }
        String message =
                "BROWSER TESTS NOT RUN: no "
                        + (Files.isExecutable(BROWSER) ? DRIVER : BROWSER)
                        + ". Install them with: apt-get install -y chromium chromium-driver";
        System.err.println(
                "\n"
                        + "!".repeat(message.length())
                        + "\n"
                        + message
                        + "\n"
                        + "!".repeat(message.length()));
        if (Boolean.parseBoolean(System.getenv("EDITLOCK_REQUIRE_BROWSER"))) {
            Assertions.fail(message);
        }
        Assumptions.abort(message);
    }

    /**
     * Whether Chromium is installed, for tests that use a browser for part of what they show:
     * without it they do the rest and say loudly what they skipped, unless a browser is required
     * (CI), which makes its absence a failure.
     */
    public static boolean available() {
        if (Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER)) {
            return true;
        }
        String message =
                "BROWSER PART NOT RUN: no "
                        + (Files.isExecutable(BROWSER) ? DRIVER : BROWSER)
                        + ". Install them with: apt-get install -y chromium chromium-driver";
        System.err.println(
                "\n"
                        + "!".repeat(message.length())
                        + "\n"
                        + message
                        + "\n"
                        + "!".repeat(message.length()));
        if (Boolean.parseBoolean(System.getenv("EDITLOCK_REQUIRE_BROWSER"))) {
            Assertions.fail(message);
        }
        return false;
    }

    /** Each browser's own profile folder: it names the browser's processes on the command line. */
    private static final Map<ChromeDriver, Path> PROFILES = new ConcurrentHashMap<>();

    public static ChromeDriver start() {
        return start(null, null);
    }

    /**
     * A browser that reads {@code language} first ({@code "de-DE"}: its {@code Accept-Language} and
     * {@code navigator.language}) and lives in the time zone {@code zone} ({@code "Europe/Berlin"},
     * as the DevTools emulate it for the first tab); {@code null} for the machine's own.
     */
    public static ChromeDriver start(String language, String zone) {
        return start(language, zone, List.of());
    }

    /**
     * The same, with more command-line switches ({@code --ignore-certificate-errors} for the test
     * proxy's self-signed certificate).
     */
    public static ChromeDriver start(String language, String zone, List<String> switches) {
        require();
        Path profile;
        try {
            profile = Files.createTempDirectory("editlock-chromium-");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments(
                "--user-data-dir=" + profile,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
                "--window-size=1200,1000");
        options.addArguments(switches);
        // The console log, to catch Content-Security-Policy violations (see cspViolations), and the
        // network log, to
        // see that no page opens a WebSocket (see webSocketsOpened).
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL", "performance", "ALL"));
        if (language != null) {
            options.addArguments("--lang=" + language);
            options.setExperimentalOption(
                    "prefs",
                    Map.of("intl.accept_languages", language + "," + language.substring(0, 2)));
        }
        ChromeDriverService service =
                new ChromeDriverService.Builder()
                        .usingDriverExecutable(DRIVER.toFile())
                        .usingAnyFreePort()
                        .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        if (zone != null) {
            driver.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", zone));
        }
        PROFILES.put(driver, profile);
        return driver;
    }

    /**
     * The browser's processes (not the driver's): those started with its profile, and their
     * children.
     */
    public static List<ProcessHandle> processes(ChromeDriver driver) {
        String marker = "--user-data-dir=" + PROFILES.get(driver);
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .flatMap(
                        p ->
                                java.util.stream.Stream.concat(
                                        java.util.stream.Stream.of(p), p.descendants()))
                .distinct()
                .toList();
    }

    /**
     * The browser's console messages since the last call that report a Content-Security-Policy
     * violation: a script, style or connection the page needs that the policy blocks (or an
     * injected one it rightly blocked).
     */
    public static List<String> cspViolations(ChromeDriver driver) {
        signal(driver, "CONT"); // a frozen browser would not answer
        try {
            return driver
                    .manage()
                    .logs()
                    .get(org.openqa.selenium.logging.LogType.BROWSER)
                    .getAll()
                    .stream()
                    .map(org.openqa.selenium.logging.LogEntry::getMessage)
                    .filter(m -> m.contains("Content Security Policy"))
                    .toList();
        } catch (RuntimeException e) {
            if (KILLED.contains(driver)) { // a browser the test killed has no log to give
                return List.of();
            }
            throw new AssertionError(
                    "The browser's console could not be read for Content-Security-Policy"
                            + " violations: the gate would pass with nothing read",
                    e);
        }
    }

    /**
     * The WebSockets the browser's pages opened since the last call (their addresses, from the
     * DevTools network log): pages keep an event stream, so there must be none.
     */
    public static List<String> webSocketsOpened(ChromeDriver driver) {
        signal(driver, "CONT");
        try {
            return driver
                    .manage()
                    .logs()
                    .get(org.openqa.selenium.logging.LogType.PERFORMANCE)
                    .getAll()
                    .stream()
                    .map(org.openqa.selenium.logging.LogEntry::getMessage)
                    .filter(
                            m ->
                                    m.contains("\"Network.webSocketCreated\"")
                                            || m.contains(
                                                    "\"Network.webSocketWillSendHandshakeRequest\""))
                    .toList();
        } catch (RuntimeException e) {
            if (KILLED.contains(driver)) { // killed on purpose: it has no log to give
                return List.of();
            }
            throw new IllegalStateException(
                    "could not read the browser's network log, so cannot say that no page opened a"
                            + " WebSocket",
                    e);
        }
    }

    /** Crashes the browser as a power cut or {@code kill -9} would: no page gets to say goodbye. */
    public static void kill(ChromeDriver driver) {
        KILLED.add(driver);
        processes(driver).forEach(ProcessHandle::destroyForcibly);
    }

    /** Browsers a test killed on purpose: they have no log to give, and only they may give none. */
    private static final java.util.Set<ChromeDriver> KILLED =
            java.util.Collections.newSetFromMap(new java.util.concurrent.ConcurrentHashMap<>());

    /**
     * Freezes ({@code SIGSTOP}) or thaws ({@code SIGCONT}) every process of the browser: its
     * connections stay open.
     */
    public static void signal(ChromeDriver driver, String signal) {
        List<String> command = new java.util.ArrayList<>(List.of("kill", "-" + signal));
        processes(driver).forEach(p -> command.add(Long.toString(p.pid())));
        if (command.size() == 2) {
            return; // no process left (the browser was killed or has quit)
        }
        try {
            new ProcessBuilder(command).inheritIO().start().waitFor();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends a browser whatever state it is in (also after {@link #kill}). */
    public static void quit(ChromeDriver driver) {
        if (driver == null) {
            return;
        }
        signal(driver, "CONT");
        try {
            driver.quit();
        } catch (RuntimeException e) {
            kill(driver); // the driver could not reach a browser that was killed
        }
        PROFILES.remove(driver);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
