package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.it.browser.Browser;
import com.editlock.it.browser.Chromium;
import com.editlock.it.browser.PageStream;
import com.editlock.it.browser.Pages;
import com.editlock.it.node.ApiClient;
import com.editlock.it.node.Cluster;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The editors of {@code GridIT}'s rolling restart, each editing one whole configurator of its own
 * through the proxy: in a real browser, on a screen read over HTTP (its page, its live stream, its
 * heartbeats, its form), or through the API with a look at a screen now and then. Each keeps what
 * it has typed so far, and its Save must store exactly that.
 */
final class GridEditors {

    private GridEditors() {}

    /** How long the page waits between two heartbeats, as the screens' script does. */
    static final Duration BEAT = Duration.ofSeconds(2);

    /** One editor. {@link #beat} runs on the test's beat thread, the rest on the test's own. */
    abstract static class Editor {
        final Cluster cluster;
        final int node;
        final String user;
        final long id;
        final StringBuilder typed;

        /** When the current run of failed beats began (nanos), or -1 while they succeed. */
        private long failingSince = -1;

        /** The longest run of failed beats so far, ms: the page's "reconnecting" time. */
        final AtomicLong longestGapMillis = new AtomicLong();

        /** Failed beats so far. */
        final AtomicLong failedBeats = new AtomicLong();

        Editor(Cluster cluster, int node, String user, long id) {
            this.cluster = cluster;
            this.node = node;
            this.user = user;
            this.id = id;
            this.typed = new StringBuilder("Edited by " + user + " (" + kind() + " " + id + ")");
        }

        String key() {
            return "configurator:" + id;
        }

        abstract String kind();

        /** Logs in and opens the record for editing: the lock is taken. */
        abstract void open() throws Exception;

        /**
         * One heartbeat of the page: true when it was answered as it should be. Being asked to log
         * in is no gap but a failure of the test.
         */
        boolean beatOnce() {
            return true;
        }

        /** Types more into the name. */
        void type(String more) throws Exception {
            typed.append(more);
        }

        /** The editor is still in its session, still editing (no login asked, no lock lost). */
        abstract void stillEditing() throws Exception;

        /** Saves what was typed. */
        abstract void save() throws Exception;

        /** Leaves: closes what it opened. */
        abstract void close();

        /** One beat, with its gap bookkeeping. */
        final synchronized void beat() {
            boolean ok = beatOnce();
            long now = System.nanoTime();
            if (ok) {
                if (failingSince >= 0) {
                    longestGapMillis.accumulateAndGet(
                            Duration.ofNanos(now - failingSince).toMillis(), Math::max);
                    failingSince = -1;
                }
            } else {
                failedBeats.incrementAndGet();
                if (failingSince < 0) {
                    failingSince = now;
                }
            }
        }

        /** The name stored for the record now. */
        String storedName() throws Exception {
            try (Connection c = cluster.connect();
                    PreparedStatement ps =
                            c.prepareStatement("select name from configurator where id = ?")) {
                ps.setLong(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    return rs.getString(1);
                }
            }
        }

        @Override
        public String toString() {
            return user + "'s " + kind() + " on " + key();
        }
    }

    /** An editor in a real browser (Chromium): the page's own script beats and reconnects. */
    static final class InChromium extends Editor {
        private ChromeDriver driver;

        InChromium(Cluster cluster, int node, String user, long id) {
            super(cluster, node, user, id);
        }

        @Override
        String kind() {
            return "browser";
        }

        @Override
        void open() {
            driver = Chromium.start();
            cluster.logIn(driver, node, user);
            driver.get(cluster.userUri(node) + "configurator.xhtml?id=" + id);
            assertThat(Pages.testId(driver, "lock-status"))
                    .as(toString())
                    .isEqualTo("You are editing");
            var name = driver.findElement(By.id("edit:name"));
            name.clear();
            name.sendKeys(typed);
        }

        @Override
        void type(String more) throws Exception {
            super.type(more);
            driver.findElement(By.id("edit:name")).sendKeys(more);
        }

        /** The proxy's node cookie in this browser now. */
        String nodeCookie() {
            return driver.manage().getCookieNamed("EDITLOCK_NODE").getValue();
        }

        @Override
        void stillEditing() {
            assertThat(driver.findElements(By.id("login:username")))
                    .as("%s: never asked to log in", this)
                    .isEmpty();
            assertThat(Pages.testId(driver, "lock-status"))
                    .as(toString())
                    .isEqualTo("You are editing");
        }

        @Override
        void save() {
            driver.findElement(By.cssSelector("[data-testid=save]")).click();
        }

        @Override
        void close() {
            Chromium.quit(driver);
        }
    }

    /**
     * An editor whose screen is read over HTTP as a browser would: the edit page, its live stream
     * (opened again through the proxy as soon as it ends, as the page's worker does), its tab's
     * heartbeats, and at last its form's Save with what was typed.
     */
    static final class OnScreen extends Editor {
        private Browser browser;
        private volatile PageStream stream;
        private String view;

        /** The stream's longest time ended before it was open again, ms. */
        final AtomicLong longestStreamGapMillis = new AtomicLong();

        OnScreen(Cluster cluster, int node, String user, long id) {
            super(cluster, node, user, id);
        }

        @Override
        String kind() {
            return "screen";
        }

        @Override
        void open() throws Exception {
            browser = cluster.browser(node).timeout(Duration.ofSeconds(20));
            assertThat(browser.login(user, "demo").statusCode()).isEqualTo(200);
            assertThat(browser.get("configurator.xhtml?id=" + id).statusCode()).isEqualTo(200);
            assertThat(browser.page()).as(toString()).contains("data-editing=\"true\"");
            view = browser.viewToken().orElseThrow();
            stream = browser.openStream(m -> {});
            assertThat(stream.status()).isEqualTo(200);
        }

        /** Opens the stream again if it ended; true when it is open. */
        boolean keepStream() {
            if (!stream.endedByServer()) {
                return true;
            }
            long since = System.nanoTime();
            for (int attempt = 0; attempt < 40; attempt++) {
                try {
                    PageStream again =
                            PageStream.open(
                                    browser.liveAddress().orElseThrow(),
                                    browser.cookieHeader().orElse(null),
                                    Duration.ofSeconds(10),
                                    m -> {});
                    if (again.status() == 200) {
                        stream = again;
                        longestStreamGapMillis.accumulateAndGet(
                                Duration.ofNanos(System.nanoTime() - since).toMillis(), Math::max);
                        return true;
                    }
                    again.close();
                } catch (java.io.IOException e) {
                    // the proxy found no node yet: the worker tries again
                }
                try {
                    Thread.sleep(250); // the page worker's pace between attempts
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return false;
        }

        @Override
        boolean beatOnce() {
            if (!keepStream()) {
                return false;
            }
            java.net.http.HttpResponse<String> r;
            try {
                r = browser.post("api/locks/heartbeat?view=" + view);
            } catch (AssertionError e) {
                if (e.getCause() instanceof java.io.IOException) {
                    // the connection died under the beat (its node was killed): a failed beat,
                    // which the gap bookkeeping bounds, as a browser's worker beats again
                    return false;
                }
                throw e;
            }
            if (r.statusCode() == 401) {
                throw new AssertionError(this + " was asked to log in: its beat answered 401");
            }
            return r.statusCode() == 204;
        }

        @Override
        void stillEditing() {
            var mine = browser.peek("api/locks");
            assertThat(mine.statusCode()).as("%s: its session", this).isEqualTo(200);
            assertThat(mine.body()).as(toString()).contains("\"" + key() + "\"");
        }

        @Override
        void save() {
            browser.submit("edit", Map.of("edit:name", typed.toString()), "edit:save");
            assertThat(browser.page()).as("%s: its Save", this).contains("Saved \u201c");
        }

        @Override
        void close() {
            if (stream != null) {
                stream.close();
            }
        }
    }

    /** An editor through the API, who also looks at the list screen now and then. */
    static final class ThroughApi extends Editor {
        private ApiClient api;

        ThroughApi(Cluster cluster, int node, String user, long id) {
            super(cluster, node, user, id);
        }

        @Override
        String kind() {
            return "API client";
        }

        @Override
        void open() {
            api = cluster.api(node, Duration.ofSeconds(20));
            assertThat(api.login(user, "demo").status()).isEqualTo(200);
            ApiClient.Answer taken = api.acquire(key(), "WRITE");
            assertThat(taken.status()).as("%s: %s", this, taken.body()).isEqualTo(201);
        }

        @Override
        boolean beatOnce() {
            int status = api.heartbeat().status();
            if (status == 401) {
                throw new AssertionError(this + " was asked to log in: its beat answered 401");
            }
            return status == 204;
        }

        @Override
        void stillEditing() {
            ApiClient.Answer mine = api.send("GET", "api/locks", null);
            assertThat(mine.status()).as("%s: its session", this).isEqualTo(200);
            assertThat(mine.body()).as(toString()).contains("\"" + key() + "\"");
            ApiClient.Answer screen = api.send("GET", "configurators.xhtml", null);
            assertThat(screen.status()).as("%s: the list screen", this).isEqualTo(200);
            assertThat(screen.body())
                    .as("%s: the list screen, not the login", this)
                    .doesNotContain("login:username");
        }

        @Override
        void save() {
            JsonObject before =
                    Json.createReader(
                                    new StringReader(
                                            api.send("GET", "api/configurators/" + id, null)
                                                    .body()))
                            .readObject();
            JsonObject after =
                    Json.createObjectBuilder(before).add("name", typed.toString()).build();
            ApiClient.Answer saved = api.send("PUT", "api/configurators/" + id, after.toString());
            assertThat(saved.status()).as("%s: its save: %s", this, saved.body()).isEqualTo(200);
        }

        @Override
        void close() {
            api.logout();
        }
    }
}
