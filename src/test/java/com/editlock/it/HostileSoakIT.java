package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.it.browser.Browser;
import com.editlock.it.browser.PageStream;
import com.editlock.it.node.Deployments;
import com.editlock.it.node.LoopbackHttp;
import com.editlock.it.node.NodeHeap;
import com.editlock.it.node.TestDatabase;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The hostile soak ({@code mvn -Phostile-soak verify}; left out of the default build for its
 * length, 14 minutes and more): 20 real users edit through the screens and the API for {@code
 * hostile.quietMinutes} (2) alone after a warm-up of 2 minutes, then for {@code hostile.minutes}
 * (10) while, from other addresses, a logged-in attacker and anonymous scripts keep up every
 * hostile load of docs/security.md at once: unread live streams, {@code HEAD /live}, view-state
 * stuffing, slow bodies, token spraying and heartbeat floods. It holds that no real user is refused
 * or sees a 5xx, that nobody sees a 5xx, that the node's heap after a full collection stays under
 * {@link #HEAP_BOUND}, and that the real users' edit page p99 under attack is within 2× of the
 * quiet run's; it prints the table docs/security.md shows, with the date and commit.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@Tag("hostile-soak")
public class HostileSoakIT {

    /** The node's heap after a full collection stays below this (the node may use 512 MB). */
    static final long HEAP_BOUND = 256L * 1024 * 1024;

    private static final int USERS = 20;

    /** How long the users work before anything is measured. */
    private static final Duration WARM_UP = Duration.ofMinutes(2);

    /** A person's pause between one edit and the next (reading, typing). */
    private static final long THINK_MILLIS = 250;

    @Deployment(testable = false)
    public static WebArchive deployment() {
        return Deployments.editlock();
    }

    @ArquillianResource URL base;

    /** Every answer's status, counted, by who got it. */
    private final Map<String, AtomicLong> statuses = new ConcurrentHashMap<>();

    /** What went wrong for a real user (an unexpected status, an exception). */
    private final Queue<String> userFailures = new ConcurrentLinkedQueue<>();

    /** Failures of the hostile threads themselves (they must keep up their load). */
    private final Queue<Throwable> attackFailures = new ConcurrentLinkedQueue<>();

    private volatile boolean measuring;
    private volatile boolean attacking;
    private volatile boolean running = true;

    @Test
    void twentyUsersEditUnharmedWhileEveryHostileLoadRunsAtOnce() throws Exception {
        URI at = URI.create(base.toString());
        Duration quiet = Duration.ofMinutes(Long.getLong("hostile.quietMinutes", 2));
        Duration attack = Duration.ofMinutes(Long.getLong("hostile.minutes", 10));
        List<Long> records = new ArrayList<>();
        for (int i = 0; i < USERS + 1; i++) {
            TestDatabase.addUser("soak" + i, "Soak " + i, "editor");
            records.add(TestDatabase.newConfigurator("Soak " + i));
        }
        NodeHeap node = NodeHeap.listeningOn(at.getPort());
        List<Long> quietPage = Collections.synchronizedList(new ArrayList<>());
        List<Long> attackedPage = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < USERS; i++) {
            int user = i;
            threads.add(
                    Thread.ofPlatform()
                            .name("soak-user-" + i)
                            .start(
                                    () ->
                                            realUser(
                                                    at,
                                                    "soak" + user,
                                                    records.get(user),
                                                    quietPage,
                                                    attackedPage)));
        }
        TimeUnit.SECONDS.sleep(WARM_UP.toSeconds()); // first renderings, the JIT: not measured
        measuring = true;
        long heapQuiet = node.usedAfterGc();
        long heapBefore = sampleHeap(node, quiet); // the quiet run: the users alone
        attacking = true;
        List<Thread> attackers = attackers(at, "soak" + USERS, records.get(USERS));
        long maxHeap = Math.max(heapBefore, sampleHeap(node, attack));
        running = false;
        for (Thread t : threads) {
            t.join(60_000);
        }
        for (Thread t : attackers) {
            t.join(60_000);
        }
        long heapAfter = node.usedAfterGc();

        long quietP99 = percentile(quietPage, 0.99);
        long attackedP99 = percentile(attackedPage, 0.99);
        String commit = commit();
        StringBuilder table = new StringBuilder();
        table.append(
                        String.format(
                                "Hostile soak, %s, commit %s, %d cores: %d real users, %d min quiet"
                                        + " then %d min under attack%n",
                                LocalDate.now(),
                                commit,
                                Runtime.getRuntime().availableProcessors(),
                                USERS,
                                quiet.toMinutes(),
                                attack.toMinutes()))
                .append("| measure | quiet | under attack |\n|---|---|---|\n")
                .append(
                        String.format(
                                "| edit page opened, samples | %,d | %,d |%n",
                                quietPage.size(), attackedPage.size()))
                .append(
                        String.format(
                                "| edit page p50 / p99 | %d / %d ms | %d / %d ms |%n",
                                percentile(quietPage, 0.5),
                                quietP99,
                                percentile(attackedPage, 0.5),
                                attackedP99))
                .append(
                        String.format(
                                "| node heap after a full GC | %,d KB at the start, %,d KB max"
                                        + " | %,d KB max, %,d KB at the end (bound %,d KB) |%n",
                                heapQuiet / 1024,
                                heapBefore / 1024,
                                maxHeap / 1024,
                                heapAfter / 1024,
                                HEAP_BOUND / 1024))
                .append(
                        String.format(
                                "| real users refused or failed | %d | |%n", userFailures.size()));
        new java.util.TreeMap<>(statuses)
                .forEach((k, v) -> table.append(String.format("| %s | %,d | |%n", k, v.get())));
        System.out.println(table);

        assertThat(attackFailures).as("the attackers kept up their load").isEmpty();
        assertThat(userFailures).as("no real user refused, no 5xx").isEmpty();
        assertThat(statuses.keySet())
                .as("nobody got a 5xx")
                .noneMatch(k -> k.matches(".* 5\\d\\d"));
        assertThat(maxHeap).as("the node's heap after a full GC, bytes").isLessThan(HEAP_BOUND);
        assertThat(attackedPage).as("the users kept editing under attack").hasSizeGreaterThan(100);
        assertThat(attackedP99)
                .as("edit page p99 under attack within 2x the quiet run's (%d ms)", quietP99)
                .isLessThanOrEqualTo(2 * quietP99);
    }

    // ---- the real users ----

    /**
     * One person at work: opens their record's edit page, saves a change (the save frees the lock),
     * every other round takes and gives back the lock through the API too.
     */
    private void realUser(
            URI at, String login, long record, List<Long> quietPage, List<Long> attackedPage) {
        try {
            Browser me = new Browser(at);
            expect(login, "login", me.login(login, "right-password"), 200);
            for (int round = 0; running; round++) {
                long start = System.nanoTime();
                HttpResponse<String> page = me.get("configurator.xhtml?id=" + record);
                long millis = (System.nanoTime() - start) / 1_000_000;
                expect(login, "edit page", page, 200);
                if (!me.page().contains("data-editing=\"true\"")) {
                    userFailures.add(login + ": the edit page did not let them edit");
                    continue;
                }
                if (measuring) {
                    (attacking ? attackedPage : quietPage).add(millis);
                }
                expect(
                        login,
                        "save",
                        me.submit("edit", Map.of("edit:name", "Soak " + round), "edit:save"),
                        200);
                if (round % 2 == 0) {
                    String key = "configurator:" + record;
                    expect(
                            login,
                            "API lock",
                            me.postJson("api/locks", "{\"resource\":\"" + key + "\"}"),
                            201);
                    expect(login, "API release", me.delete("api/locks/" + key), 204);
                }
                TimeUnit.MILLISECONDS.sleep(THINK_MILLIS);
            }
        } catch (Exception | AssertionError e) {
            userFailures.add(login + ": " + e);
        }
    }

    private void expect(String login, String what, HttpResponse<String> r, int status) {
        count("user " + r.statusCode());
        if (r.statusCode() != status) {
            userFailures.add(login + ": " + what + " answered " + r.statusCode());
        }
    }

    private void count(String key) {
        statuses.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
    }

    // ---- the attackers ----

    /** Every hostile load at once, each on a thread of its own, paced as a script would be. */
    private List<Thread> attackers(URI at, String login, long record) throws Exception {
        Browser evil = new Browser(at);
        assertThat(evil.login(login, "right-password").statusCode()).isEqualTo(200);
        assertThat(evil.get("configurator.xhtml?id=" + record).statusCode()).isEqualTo(200);
        String editTab = evil.viewToken().orElseThrow();
        String cookie = evil.cookieHeader().orElseThrow();
        List<Thread> all = new ArrayList<>();
        all.add(attack("unread streams", () -> unreadStreams(at, cookie, editTab)));
        all.add(
                attack(
                        "HEAD /live",
                        () -> {
                            LoopbackHttp.Answer a =
                                    LoopbackHttp.send(
                                            "127.0.0.21",
                                            at,
                                            "HEAD",
                                            "live?tabs=" + editTab,
                                            Map.of("Cookie", cookie),
                                            null);
                            count("HEAD /live " + a.status());
                            TimeUnit.MILLISECONDS.sleep(20);
                        }));
        String huge = "d".repeat(200 * 1024);
        all.add(
                attack(
                        "view-state stuffing",
                        () -> {
                            HttpResponse<String> r =
                                    evil.submitKeepingPage(
                                            "edit", Map.of("edit:description", huge), "edit:save");
                            count("stuffing " + r.statusCode());
                            TimeUnit.MILLISECONDS.sleep(50);
                        }));
        all.add(attack("slow bodies", () -> slowBodies(at)));
        all.add(
                attack(
                        "token spraying",
                        () -> {
                            LoopbackHttp.Answer a =
                                    LoopbackHttp.send(
                                            "127.0.0.23",
                                            at,
                                            "GET",
                                            "api/locks",
                                            Map.of(
                                                    "Authorization",
                                                    "Bearer el_" + UUID.randomUUID()),
                                            null);
                            count("token spray " + a.status());
                            TimeUnit.MILLISECONDS.sleep(20);
                        }));
        all.add(
                attack(
                        "heartbeat flood",
                        () -> {
                            StringBuilder views = new StringBuilder("api/locks/heartbeat?view=");
                            views.append(editTab);
                            for (int i = 0; i < 9; i++) {
                                views.append("&view=").append(UUID.randomUUID());
                            }
                            HttpResponse<String> r = evil.post(views.toString());
                            count("heartbeat flood " + r.statusCode());
                            TimeUnit.MILLISECONDS.sleep(20);
                        }));
        return all;
    }

    private interface Step {
        void run() throws Exception;
    }

    private Thread attack(String name, Step step) {
        return Thread.ofPlatform()
                .name("soak-attack-" + name)
                .start(
                        () -> {
                            while (running) {
                                try {
                                    step.run();
                                } catch (Exception | AssertionError e) {
                                    if (running) {
                                        attackFailures.add(new AssertionError(name, e));
                                        return;
                                    }
                                }
                            }
                        });
    }

    /**
     * Four unread streams of the attacker's edit tab at a time, from 127.0.0.20: each opened and
     * never read; one the node ended (its client judged gone) is opened again.
     */
    private void unreadStreams(URI at, String cookie, String tab) throws Exception {
        List<Socket> open = new ArrayList<>();
        try {
            while (running) {
                open.removeIf(Socket::isClosed);
                while (open.size() < 4) {
                    Socket s = PageStream.openUnread(at, cookie, List.of(tab), "127.0.0.20");
                    open.add(s);
                    count("unread stream opened");
                }
                TimeUnit.SECONDS.sleep(1);
            }
        } finally {
            for (Socket s : open) {
                s.close();
            }
        }
    }

    /**
     * Twenty login forms at a time from 127.0.0.22, each announcing 1,000 bytes and sending one a
     * second; the node cuts each at its read time-out (or refuses beyond its bound per address).
     */
    private void slowBodies(URI at) throws Exception {
        List<Socket> open = new ArrayList<>();
        try {
            while (running) {
                open.removeIf(Socket::isClosed);
                while (open.size() < 20) {
                    Socket s = new Socket();
                    s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.22"), 0));
                    s.connect(new InetSocketAddress(at.getHost(), at.getPort()), 5000);
                    s.getOutputStream()
                            .write(
                                    ("POST "
                                                    + at.getRawPath()
                                                    + "login.xhtml HTTP/1.1\r\nHost: "
                                                    + at.getAuthority()
                                                    + "\r\nOrigin: "
                                                    + at.getScheme()
                                                    + "://"
                                                    + at.getAuthority()
                                                    + "\r\nContent-Type:"
                                                    + " application/x-www-form-urlencoded"
                                                    + "\r\nContent-Length: 1000\r\n\r\n")
                                            .getBytes(StandardCharsets.US_ASCII));
                    open.add(s);
                    count("slow body opened");
                }
                for (Socket s : open) {
                    try {
                        OutputStream out = s.getOutputStream();
                        out.write('a');
                        out.flush();
                    } catch (IOException e) {
                        s.close(); // cut or refused by the node: another takes its place
                    }
                }
                TimeUnit.SECONDS.sleep(1);
            }
        } finally {
            for (Socket s : open) {
                s.close();
            }
        }
    }

    // ---- helpers ----

    /**
     * Waits {@code span}, reading the node's heap after a full collection once a minute (in both
     * phases alike: each collection pauses the node); the largest reading.
     */
    private static long sampleHeap(NodeHeap node, Duration span) throws Exception {
        long max = 0;
        long end = System.nanoTime() + span.toNanos();
        while (System.nanoTime() < end) {
            long left = (end - System.nanoTime()) / 1_000_000;
            TimeUnit.MILLISECONDS.sleep(Math.max(1, Math.min(60_000, left)));
            max = Math.max(max, node.usedAfterGc());
        }
        return max;
    }

    private static long percentile(List<Long> samples, double p) {
        List<Long> sorted;
        synchronized (samples) {
            sorted = new ArrayList<>(samples);
        }
        if (sorted.isEmpty()) {
            return -1;
        }
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
    }

    private static String commit() {
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").start();
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return git.waitFor() == 0 ? out.strip() : "unknown";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
