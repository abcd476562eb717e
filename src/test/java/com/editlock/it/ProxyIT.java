package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.editlock.it.browser.Browser;
import com.editlock.it.browser.Chromium;
import com.editlock.it.browser.PageStream;
import com.editlock.it.browser.Pages;
import com.editlock.it.node.ApiClient;
import com.editlock.it.node.Cluster;
import com.editlock.it.node.Tls;
import com.editlock.it.node.TwoNodes;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The production topology the run command starts with {@code LOCKS_NODES=2}: two nodes behind
 * HAProxy with the shipped configuration ({@code server-config/haproxy.cfg}), every user request
 * through the proxy, the nodes' own addresses only to read what a node counted. The nodes are the
 * ones the two-node suites share ({@link TwoNodes}); the login allowance per account and address is
 * the product's (5).
 */
class ProxyIT {

    private static Cluster cluster;
    private static List<String> keys;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TwoNodes.behindProxy();
        keys = cluster.addConfigurators(2);
    }

    @Test
    void aSessionsCallsAreAllAnsweredByItsNode() {
        long[] before = {served(0), served(1)};
        ApiClient sara = new ApiClient(cluster.proxyUri(), Duration.ofSeconds(10));
        assertThat(sara.login("sara", "demo").status()).isEqualTo(200);
        for (int i = 0; i < 30; i++) {
            assertThat(sara.send("GET", "api/locks?limit=1", null).status()).isEqualTo(200);
        }
        long[] grew = {served(0) - before[0], served(1) - before[1]};
        assertThat(Math.max(grew[0], grew[1]))
                .as(
                        "the login and the 30 calls on one node (requests counted per node: %s)",
                        java.util.Arrays.toString(grew))
                .isEqualTo(31);
        assertThat(Math.min(grew[0], grew[1])).as("requests on the other node").isZero();
        sara.logout();
    }

    /** What a client that trickles its header a line every 3 s got, and after how long. */
    private record Trickle(boolean cut, long seconds, String answer, int localPort) {}

    private static Trickle trickleHeader() throws IOException {
        URI proxy = cluster.proxyUri();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(proxy.getHost(), proxy.getPort()), 5_000);
            socket.setSoTimeout(3_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            long start = System.nanoTime();
            out.write(
                    "GET /login.xhtml?case=slow-header HTTP/1.1\r\nHost: localhost\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            boolean cut = false;
            String answer = "";
            for (int line = 0; line < 15 && !cut; line++) {
                try {
                    byte[] buffer = new byte[512];
                    int n = in.read(buffer); // waits 3 s for the proxy to say anything
                    answer = n < 0 ? "" : new String(buffer, 0, n, StandardCharsets.US_ASCII);
                    cut = true;
                } catch (SocketTimeoutException stillOpen) {
                    try {
                        out.write(
                                ("X-Slow-" + line + ": y\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                    } catch (IOException e) {
                        cut = true;
                    }
                }
            }
            return new Trickle(
                    cut,
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start),
                    answer,
                    socket.getLocalPort());
        }
    }

    /**
     * What each abuse of the transport gets behind the proxy, and which layer answers it: the
     * proxy's log names the node that answered a request, or {@code <NOSRV>} when the proxy did.
     */
    @Test
    void eachTransportAbuseIsAnsweredByTheLayerMeantForIt() throws Exception {
        ApiClient omar = new ApiClient(cluster.proxyUri(), Duration.ofSeconds(10));
        assertThat(omar.login("omar", "demo").status()).isEqualTo(200);
        String cookie = omar.cookieHeader();
        Map<String, String> layers = new java.util.LinkedHashMap<>();
        // The two slow cases wait for the proxy's 10 s side by side.
        var slowCases =
                java.util.concurrent.Executors.newFixedThreadPool(
                        2, Thread.ofPlatform().daemon().name("slow-case-", 1).factory());
        var header = slowCases.submit(ProxyIT::trickleHeader);
        var body =
                slowCases.submit(
                        () -> {
                            long start = System.nanoTime();
                            String answer =
                                    rawExchange(
                                            "POST /api/locks?case=slow-body HTTP/1.1\r\nHost: localhost\r\nCookie: "
                                                    + cookie
                                                    + "\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"r\"",
                                            Duration.ofSeconds(30));
                            return new Trickle(
                                    true,
                                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start),
                                    answer,
                                    0);
                        });

        // A declared body above the nodes' limit: refused by the proxy unread.
        String declared =
                rawExchange(
                        "POST /api/locks?case=declared-large HTTP/1.1\r\nHost: localhost\r\nCookie: "
                                + cookie
                                + "\r\nContent-Type: application/json\r\nContent-Length: 300000\r\n\r\n",
                        Duration.ofSeconds(10));
        assertThat(declared).startsWith("HTTP/1.1 413");
        layers.put("declared body above the limit", answeredBy("case=declared-large"));

        // A chunked body above the limit: the proxy cannot know its size; the node counts it.
        HttpResponse<String> chunked =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .build()
                        .send(
                                HttpRequest.newBuilder(
                                                cluster.proxyUri()
                                                        .resolve("api/locks?case=chunked-large"))
                                        .header("Cookie", cookie)
                                        .header("Content-Type", "application/json")
                                        .POST(
                                                HttpRequest.BodyPublishers.ofInputStream(
                                                        () ->
                                                                new java.io.ByteArrayInputStream(
                                                                        ("{\"resource\":\""
                                                                                        + "a"
                                                                                                .repeat(
                                                                                                        300_000)
                                                                                        + "\"}")
                                                                                .getBytes(
                                                                                        StandardCharsets
                                                                                                .UTF_8))))
                                        .timeout(Duration.ofSeconds(10))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(chunked.statusCode()).isEqualTo(413);
        assertThat(chunked.body()).contains("larger than");
        layers.put("chunked body above the limit", answeredBy("case=chunked-large"));

        // Many idle connections: held by the proxy; a real request still answered at once.
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 300; i++) {
                Socket s = new Socket();
                s.connect(
                        new InetSocketAddress(
                                cluster.proxyUri().getHost(), cluster.proxyUri().getPort()),
                        5_000);
                idle.add(s);
            }
            long asked = System.nanoTime();
            assertThat(omar.send("GET", "api/locks?case=beside-idle", null).status())
                    .isEqualTo(200);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - asked);
            assertThat(millis).as("answered beside 300 idle connections").isLessThan(1_000);
            layers.put("300 idle connections (a request beside them: " + millis + " ms)", "proxy");
        } finally {
            for (Socket s : idle) {
                s.close();
            }
        }
        Trickle trickled = header.get(60, TimeUnit.SECONDS);
        System.out.printf(
                "A header trickled a line every 3 s was cut after %d s: %s%n",
                trickled.seconds(), trickled.answer().lines().findFirst().orElse("(closed)"));
        assertThat(trickled.cut()).as("the proxy cut the trickling header").isTrue();
        assertThat(trickled.seconds()).as("a trickling header is cut within 30 s").isLessThan(30);
        assertThat(trickled.answer()).as("never passed on as a request").startsWith("HTTP/1.1 408");
        layers.put(
                "header trickled (" + trickled.seconds() + " s)",
                // cut in its header, the request is logged without its line: found by its port
                answeredBy("127.0.0.1:" + trickled.localPort() + " "));
        Trickle stalled = body.get(60, TimeUnit.SECONDS);
        slowCases.shutdown();
        assertThat(stalled.answer()).startsWith("HTTP/1.1 408");
        assertThat(stalled.seconds()).as("a stalled body is cut within 30 s").isLessThan(30);
        layers.put("body stalled (" + stalled.seconds() + " s)", answeredBy("case=slow-body"));
        System.out.println("Transport abuse behind the proxy, answered by: " + layers);
        assertThat(layers)
                .containsEntry("declared body above the limit", "proxy")
                .containsEntry("chunked body above the limit", "node")
                .containsEntry("header trickled (" + trickled.seconds() + " s)", "proxy")
                .containsEntry("body stalled (" + stalled.seconds() + " s)", "proxy");
        omar.logout();
    }

    /**
     * Who answered the request whose log line holds {@code marker} (its query, or its client's
     * address and port), by the proxy's log.
     */
    private static String answeredBy(String marker) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            for (String line : Files.readAllLines(cluster.proxyLog())) {
                if (line.contains(marker)) {
                    return line.contains("<NOSRV>") ? "proxy" : "node";
                }
            }
            assertThat(System.nanoTime()).as("the proxy logged " + marker).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    @Test
    void noH2cUpgradeIsAnsweredAndNoPlainTextHttp2PrefaceIsSpoken() throws Exception {
        String upgrade =
                rawExchange(
                        "GET /login.xhtml HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade,"
                                + " HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings:"
                                + " AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n");
        assertThat(upgrade).startsWith("HTTP/1.1 200");
        assertThat(upgrade.lines().findFirst().orElse("")).doesNotContain("101");
        String preface = rawExchange("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
        assertThat(preface)
                .as("a prior-knowledge preface is refused as HTTP/1.1, or the connection closed")
                .satisfiesAnyOf(
                        a -> assertThat(a).isEmpty(), a -> assertThat(a).startsWith("HTTP/1.1 4"));
    }

    @Test
    void theTlsPortSpeaksHttp2() throws Exception {
        HttpClient h2 =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_2)
                        .sslContext(Tls.trusting(cluster.proxyCertificate()))
                        .connectTimeout(Duration.ofSeconds(5))
                        .build();
        HttpResponse<String> r =
                h2.send(
                        HttpRequest.newBuilder(cluster.proxyHttpsUri().resolve("login.xhtml"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
        // The nodes see plain HTTP from the proxy, yet redirect to https and mark the session
        // cookie Secure: they read X-Forwarded-Proto.
        HttpResponse<Void> away =
                h2.send(
                        HttpRequest.newBuilder(
                                        cluster.proxyHttpsUri().resolve("configurators.xhtml"))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
        assertThat(away.statusCode()).isEqualTo(302);
        assertThat(away.headers().firstValue("Location").orElseThrow())
                .startsWith(cluster.proxyHttpsUri().resolve("login.xhtml").toString());
        HttpResponse<Void> in =
                h2.send(
                        HttpRequest.newBuilder(cluster.proxyHttpsUri().resolve("api/locks?limit=1"))
                                .header(
                                        "Authorization",
                                        "Basic "
                                                + java.util.Base64.getEncoder()
                                                        .encodeToString(
                                                                "sara:demo"
                                                                        .getBytes(
                                                                                StandardCharsets
                                                                                        .UTF_8)))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
        assertThat(in.statusCode()).isEqualTo(200);
        assertThat(in.headers().allValues("Set-Cookie"))
                .anySatisfy(c -> assertThat(c).startsWith("JSESSIONID=").contains("; Secure"));
        // A login on the screen over https leaves a device cookie (the right password's way past
        // the throttle) that is Secure too, HttpOnly and SameSite=Lax.
        String origin =
                cluster.proxyHttpsUri().getScheme()
                        + "://"
                        + cluster.proxyHttpsUri().getAuthority();
        HttpResponse<Void> login =
                h2.send(
                        HttpRequest.newBuilder(cluster.proxyHttpsUri().resolve("login.xhtml"))
                                .header("Origin", origin)
                                .header("Content-Type", "application/x-www-form-urlencoded")
                                .POST(
                                        HttpRequest.BodyPublishers.ofString(
                                                "login=login&login%3Ausername=omar"
                                                        + "&login%3Apassword=demo"
                                                        + "&login%3Asubmit=Log+in"
                                                        + "&jakarta.faces.ViewState=stateless"))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
        List<String> set = new java.util.ArrayList<>();
        for (Optional<HttpResponse<Void>> step = Optional.of(login);
                step.isPresent();
                step = step.get().previousResponse()) {
            set.addAll(step.get().headers().allValues("Set-Cookie"));
        }
        assertThat(set)
                .as("the login's cookies over https")
                .anySatisfy(
                        c ->
                                assertThat(c)
                                        .startsWith("EDITLOCK_DEVICE=")
                                        .contains("; Secure")
                                        .containsIgnoringCase("HttpOnly")
                                        .containsIgnoringCase("SameSite=Lax"));
        if (Files.isExecutable(java.nio.file.Path.of("/usr/bin/curl"))) {
            Process curl =
                    new ProcessBuilder(
                                    "/usr/bin/curl",
                                    "--http2",
                                    "-s",
                                    "-o",
                                    "/dev/null",
                                    "--cacert",
                                    cluster.proxyCertificate().toString(),
                                    "-w",
                                    "%{http_version}",
                                    cluster.proxyHttpsUri().resolve("login.xhtml").toString())
                            .redirectErrorStream(true)
                            .start();
            String version =
                    new String(curl.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(curl.waitFor()).isZero();
            assertThat(version).as("curl --http2 on the https port").isEqualTo("2");
        }
    }

    /**
     * Forty wrong passwords for sara from 127.0.0.2, each a new connection (round robin: spread
     * over both nodes), are counted as one node would count them, and slow neither sara from
     * 127.0.0.3 nor omar from 127.0.0.4.
     */
    @Test
    void aGuesserBehindTheProxySlowsNobodyElseAndGetsTheAllowanceOfOneNode() throws Exception {
        long logFrom = Files.size(cluster.proxyLog());
        List<Integer> answers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            ApiClient guesser =
                    new ApiClient(
                            cluster.proxyUri(),
                            Duration.ofSeconds(10),
                            InetAddress.getByName("127.0.0.2"));
            answers.add(guesser.login("sara", "wrong-" + i).status());
        }
        // The proxy logs each request with the node that answered it (refused logins never reach
        // the application's own request count). It writes a request's line once the connection
        // has ended, which may come just after the client has read the answer.
        List<String> guesses =
                await("the guesses in the proxy's log")
                        .atMost(Duration.ofSeconds(5))
                        .until(
                                () -> {
                                    try (var in = Files.newInputStream(cluster.proxyLog())) {
                                        in.skipNBytes(logFrom);
                                        return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                                                .lines()
                                                .filter(l -> l.startsWith("127.0.0.2:"))
                                                .toList();
                                    }
                                },
                                lines -> lines.size() >= 40);
        assertThat(guesses).as("the guesses in the proxy's log").hasSize(40);
        assertThat(guesses.stream().filter(l -> l.contains(" nodes/node1 ")).count())
                .as("guesses answered by node 1")
                .isBetween(15L, 25L);
        assertThat(guesses.stream().filter(l -> l.contains(" nodes/node2 ")).count())
                .as("guesses answered by node 2")
                .isBetween(15L, 25L);
        assertThat(answers.subList(0, 6))
                .as("five passwords checked, over both nodes; the sixth guess waits")
                .containsExactly(401, 401, 401, 401, 401, 429);
        assertThat(answers).containsOnly(401, 429);
        for (var who : Map.of("sara", "127.0.0.3", "omar", "127.0.0.4").entrySet()) {
            ApiClient person =
                    new ApiClient(
                            cluster.proxyUri(),
                            Duration.ofSeconds(10),
                            InetAddress.getByName(who.getValue()));
            long start = System.nanoTime();
            ApiClient.Answer a = person.login(who.getKey(), "demo");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(a.status()).as(who.getKey() + " from " + who.getValue()).isEqualTo(200);
            assertThat(millis).as(who.getKey() + " logs in within 2 s").isLessThan(2_000);
            person.logout();
        }
    }

    /**
     * A client that reaches a node directly (not through a trusted proxy) cannot choose its address
     * with {@code X-Forwarded-For}: its guesses count against its own address.
     */
    @Test
    void aForwardedForHeaderFromAnUntrustedPeerIsIgnored() throws Exception {
        HttpClient direct =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .localAddress(InetAddress.getByName("127.0.0.5"))
                        .build();
        List<Integer> answers = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            HttpResponse<Void> r =
                    direct.send(
                            HttpRequest.newBuilder(cluster.uri(0).resolve("api/locks?limit=1"))
                                    .header("X-Forwarded-For", "10.9.9." + i)
                                    .header(
                                            "Authorization",
                                            "Basic "
                                                    + java.util.Base64.getEncoder()
                                                            .encodeToString(
                                                                    ("ada:wrong-" + i)
                                                                            .getBytes(
                                                                                    StandardCharsets
                                                                                            .UTF_8)))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding());
            answers.add(r.statusCode());
        }
        assertThat(answers).containsExactly(401, 401, 401, 401, 401, 429);
    }

    @Test
    void aReleaseReachesAnotherUsersOpenPageThroughTheProxyWithinOneSecond() throws Exception {
        String key = keys.get(0); // configurator:N
        String id = key.substring(key.indexOf(':') + 1);
        Browser omar = new Browser(cluster.proxyUri());
        omar.login("omar", "demo");
        omar.get("configurator.xhtml?view=true&id=" + id);
        List<Long> lockNews = new CopyOnWriteArrayList<>();
        ApiClient sara = new ApiClient(cluster.proxyUri(), Duration.ofSeconds(10));
        assertThat(sara.login("sara", "demo").status()).isEqualTo(200);
        try (PageStream stream =
                omar.openStream(
                        m -> {
                            if (m.contains("\"type\":\"lock\"")) {
                                lockNews.add(System.nanoTime());
                            }
                        })) {
            assertThat(stream.status()).isEqualTo(200);
            assertThat(sara.acquire(key, "WRITE").status()).isEqualTo(201);
            awaitNews(lockNews, 1, Duration.ofSeconds(5));
            long released = System.nanoTime();
            assertThat(sara.release(key).status()).isEqualTo(204);
            awaitNews(lockNews, 2, Duration.ofSeconds(5));
            long millis = TimeUnit.NANOSECONDS.toMillis(lockNews.get(1) - released);
            System.out.printf(
                    "A release reached the other user's page through the proxy in %d ms%n", millis);
            assertThat(millis).isLessThan(1_000);
        } finally {
            sara.logout();
        }
    }

    /**
     * Behind the proxy, a client that stops reading its stream is cut by the proxy: its client
     * sockets carry TCP_USER_TIMEOUT ({@code tcp-ut 10s}), so data the client has not taken for 10
     * s (its window closed, or nothing acknowledged) ends the connection; the proxy closes the
     * node's side, the node notices at its next keep-alive, and the tab's record is free a tab
     * grace later: 10 to 20 s after the stream opened, while its holder keeps beating (reached
     * directly, the node notices only once its own buffers are full: about 55 s in HostileInputIT).
     */
    @Test
    void aStreamNobodyReadsIsCutByTheProxyAndItsRecordIsFreedWithinTwentySeconds()
            throws Exception {
        List<String> records =
                cluster.addConfigurators(2).stream()
                        .filter(k -> k.matches("configurator:\\d+"))
                        .toList();
        String edited = records.get(0);
        String busy = records.get(1);
        URI proxy = cluster.proxyUri();
        Browser sara = new Browser(proxy);
        sara.login("sara", "demo");
        List<String> tabs = new ArrayList<>();
        for (int i = 0; i < 20; i++) { // list tabs: each hears every lock change
            sara.get("configurators.xhtml");
            tabs.add(sara.viewToken().orElseThrow());
        }
        sara.get("configurator.xhtml?id=" + edited.substring(edited.indexOf(':') + 1));
        assertThat(sara.page()).contains("data-editing=\"true\"");
        tabs.add(sara.viewToken().orElseThrow());
        ApiClient omar = new ApiClient(proxy, Duration.ofSeconds(10));
        assertThat(omar.login("omar", "demo").status()).isEqualTo(200);
        try (java.net.Socket unread =
                PageStream.openUnread(proxy, sara.cookieHeader().orElseThrow(), tabs, null)) {
            long freedAfter =
                    freedAfter(
                            sara,
                            omar,
                            edited,
                            System.nanoTime(),
                            () -> { // news for every tab of the unread stream
                                assertThat(omar.acquire(busy, "WRITE").status()).isEqualTo(201);
                                assertThat(omar.release(busy).status()).isEqualTo(204);
                            });
            System.out.printf(
                    "An unread stream through the proxy: its edit page's record free %d ms after"
                            + " it opened%n",
                    freedAfter);
            assertThat(freedAfter)
                    .as("freed after the proxy's 10 s, within 20 s of the stream's opening")
                    .isBetween(10_000L, 20_000L);
        } finally {
            omar.logout();
        }
    }

    /**
     * A browser whose machine vanished (lid shut, out of the Wi-Fi: no FIN, nothing acknowledged)
     * is cut by the proxy 10 s after the first data it left unacknowledged ({@code tcp-ut}): the
     * node sends a keep-alive every second, so the proxy gives the connection up within about 11 s
     * of the cut, the node ends the stream at its next keep-alive and the tab's record is free a
     * tab grace later — while its holder keeps beating over another connection, so the lease plays
     * no part. Without {@code tcp-ut} the kernel retransmits for about 15 minutes.
     */
    @Test
    void aBrowserThatVanishesIsCutByTheProxyAndItsRecordIsFreedWithinTwentySeconds()
            throws Exception {
        String edited =
                cluster.addConfigurators(1).stream()
                        .filter(k -> k.matches("configurator:\\d+"))
                        .findFirst()
                        .orElseThrow();
        URI proxy = cluster.proxyUri();
        Browser sara = new Browser(proxy);
        sara.login("sara", "demo");
        sara.get("configurator.xhtml?id=" + edited.substring(edited.indexOf(':') + 1));
        assertThat(sara.page()).contains("data-editing=\"true\"");
        ApiClient omar = new ApiClient(proxy, Duration.ofSeconds(10));
        assertThat(omar.login("omar", "demo").status()).isEqualTo(200);
        try (PageStream stream = sara.openStream(m -> {})) {
            assertThat(stream.status()).isEqualTo(200);
            long freedAfter;
            try (var cut = com.editlock.it.node.LoopbackCut.of(stream.localPort())) {
                freedAfter =
                        freedAfter(
                                sara,
                                omar,
                                edited,
                                System.nanoTime(),
                                () -> Thread.sleep(50)); // a pace, not a wait for anything
            }
            System.out.printf(
                    "A browser that vanished behind the proxy: its edit page's record free %d ms"
                            + " after the cut%n",
                    freedAfter);
            assertThat(freedAfter)
                    .as("freed after the proxy's 10 s, within 20 s of the cut")
                    .isBetween(10_000L, 20_000L);
        } finally {
            omar.logout();
        }
    }

    /** One step of a loop, which may fail. */
    private interface Step {
        void run() throws Exception;
    }

    /**
     * The milliseconds from {@code from} ({@link System#nanoTime()}) until {@code taker} gets
     * {@code record}, asking every 250 ms for at most 30 s (-1: never), while {@code holder} beats
     * every 1.5 s (her lease, 5 s here, stays renewed) and {@code meanwhile} runs between asks. The
     * record is released again once got.
     */
    private static long freedAfter(
            Browser holder, ApiClient taker, String record, long from, Step meanwhile)
            throws Exception {
        long beat = 0;
        long asked = 0;
        while (System.nanoTime() - from < 30_000_000_000L) {
            long now = System.nanoTime();
            if (now - beat > 1_500_000_000L) {
                beat = now;
                assertThat(holder.post("api/locks/heartbeat").statusCode()).isEqualTo(204);
            }
            if (now - asked > 250_000_000L) {
                asked = now;
                ApiClient.Answer tried = taker.acquire(record, "WRITE");
                if (tried.status() == 201) {
                    assertThat(taker.release(record).status()).isEqualTo(204);
                    return (now - from) / 1_000_000;
                }
                assertThat(tried.status()).isEqualTo(409);
            }
            meanwhile.run();
        }
        return -1;
    }

    @Test
    void aNodeMarkedNotReadyGetsNoNewRequestWithinTwoSeconds() throws Exception {
        Files.createFile(cluster.drainFile(1));
        try {
            long marked = System.nanoTime();
            Thread.sleep(2_000); // the bound under test: from the mark to the last request it gets
            long servedAtBound = served(1);
            long onOther = served(0);
            for (int i = 0; i < 20; i++) {
                ApiClient someone = new ApiClient(cluster.proxyUri(), Duration.ofSeconds(10));
                assertThat(someone.send("GET", "login.xhtml", null).status()).isEqualTo(200);
            }
            System.out.printf(
                    "Drained node checked %d ms after its mark%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - marked));
            assertThat(served(1) - servedAtBound)
                    .as("requests the draining node received after 2 s")
                    .isZero();
            assertThat(served(0) - onOther).as("the other node answered them").isEqualTo(20);
        } finally {
            Files.delete(cluster.drainFile(1));
        }
        long back = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long at = served(1);
        while (served(1) == at) {
            assertThat(System.nanoTime()).as("the node takes requests again").isLessThan(back);
            new ApiClient(cluster.proxyUri(), Duration.ofSeconds(10))
                    .send("GET", "login.xhtml", null);
        }
    }

    /**
     * Twenty editing tabs of one browser over https: every page came over HTTP/2, the one
     * connection keeps all twenty locks alive past their lease, and each tab's lock is freed within
     * the tab bound (the grace and a second to notice: 3 s) once the tab closes.
     */
    @Test
    void twentyEditingTabsOfOneBrowserOverHttpsStayLiveAndEachIsFreedWhenClosed() throws Exception {
        List<String> records =
                cluster.addConfigurators(20).stream()
                        .filter(k -> k.matches("configurator:[0-9]+"))
                        .toList();
        long boundMillis = Cluster.TAB_GRACE_MILLIS + 1000;
        ChromeDriver sara = Chromium.start(null, null, List.of("--ignore-certificate-errors"));
        ApiClient ada = new ApiClient(cluster.proxyUri(), Duration.ofSeconds(10));
        try {
            assertThat(ada.login("ada", "demo").status()).isEqualTo(200);
            java.net.URL base = cluster.proxyHttpsUri().toURL();
            Pages.login(sara, base, "sara");
            sara.get(base + "configurators.xhtml");
            String list = sara.getWindowHandle(); // stays open while the editing tabs close
            Map<String, String> tabs = new java.util.LinkedHashMap<>();
            for (String key : records) {
                sara.switchTo().newWindow(WindowType.TAB);
                sara.get(base + "configurator.xhtml?id=" + key.substring(key.indexOf(':') + 1));
                assertThat(Pages.testId(sara, "lock-status")).isEqualTo("You are editing");
                assertThat(
                                sara.executeScript(
                                        "return performance.getEntriesByType('navigation')[0]"
                                                + ".nextHopProtocol"))
                        .as("the page came over HTTP/2")
                        .isEqualTo("h2");
                tabs.put(key, sara.getWindowHandle());
            }
            Map<String, Long> tokens = new java.util.LinkedHashMap<>();
            records.forEach(k -> tokens.put(k, token(ada, k)));
            await("all twenty locks outlive their lease: every tab beats")
                    .during(Duration.ofSeconds(Cluster.LEASE_SECONDS + 1))
                    .atMost(Duration.ofSeconds(Cluster.LEASE_SECONDS + 5))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> records.stream().allMatch(k -> tokens.get(k) == token(ada, k)));
            List<Long> freedAfter = new ArrayList<>();
            for (var tab : tabs.entrySet()) {
                sara.switchTo().window(tab.getValue());
                long closed = System.nanoTime();
                sara.close();
                sara.switchTo().window(list);
                await("the closed tab's lock on " + tab.getKey() + " is freed")
                        .atMost(Duration.ofMillis(boundMillis))
                        .pollInterval(Duration.ofMillis(50))
                        .until(
                                () ->
                                        ada.send("GET", "api/locks/" + tab.getKey(), null).status()
                                                == 404);
                freedAfter.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closed));
            }
            System.out.printf(
                    "Twenty editing tabs over HTTP/2: each lock freed %s ms after its tab closed%n",
                    freedAfter);
            assertThat(freedAfter).allMatch(ms -> ms <= boundMillis);
        } finally {
            Chromium.quit(sara);
            ada.logout();
        }
    }

    /**
     * What the tab grace is for: a proxy restart that takes a second — every connection through it
     * cut at once, its port closed for 1 s (and HAProxy's own start), then the same proxy again —
     * keeps an editing tab's lock. The node notices the cut stream within 250 ms; the browser tries
     * again every 100 ms and is back through the new proxy soon after the port opens, inside the
     * grace (1.3 s, the default). Ten restarts in a row: the lock keeps its token throughout
     * (looked at every 100 ms until 2.5 s after each proxy is back), nothing ends it, and the page
     * still edits. Measured on 2 cores: a grace of 1.1 s kept it 10 times in 10, 1.0 s lost it (at
     * the first restart in one run, the sixth in another), 0.9 and 0.6 s at the first; so the
     * default is the shortest that held and 0.2 s (-Deditlock.it.nodeOptions=
     * -Dlocks.tab.grace.seconds=1.0 repeats the experiment).
     */
    @Test
    void aProxyRestartThatCutsEveryConnectionForOneSecondKeepsTheLockTenTimesInTen()
            throws Exception {
        String key = newRecord();
        ChromeDriver sara = Chromium.start();
        ApiClient ada = new ApiClient(cluster.proxyUri(), Duration.ofSeconds(10));
        try {
            assertThat(ada.login("ada", "demo").status()).isEqualTo(200);
            java.net.URL base = cluster.proxyUri().toURL();
            Pages.login(sara, base, "sara");
            sara.get(base + "configurator.xhtml?id=" + key.substring(key.indexOf(':') + 1));
            assertThat(Pages.testId(sara, "lock-status")).isEqualTo("You are editing");
            long held = token(ada, key);
            List<Long> outages = new ArrayList<>();
            for (int cut = 1; cut <= 10; cut++) {
                long back = cluster.restartProxy(Duration.ofSeconds(1)).toMillis();
                outages.add(back);
                ada.send("GET", "api/locks?limit=1", null); // its old connection died in the cut
                await(
                                "restart %d (the port closed for %d ms): the lock outlives the grace"
                                        .formatted(cut, back))
                        .during(Duration.ofMillis(2_500))
                        .atMost(Duration.ofSeconds(5))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> heldToken(ada, key) == held);
            }
            assertThat(eventTypes(ada, key).stream().filter(t -> !t.equals("ACQUIRED")).toList())
                    .as("nothing ended the lock")
                    .isEmpty();
            assertThat(Pages.testId(sara, "lock-status")).isEqualTo("You are editing");
            System.out.printf(
                    "Proxy restarts, every connection cut and the port closed for %s ms: the lock"
                            + " kept 10 times in 10%n",
                    outages);
            assertThat(outages)
                    .as("each cut closed the port for 1 s at least")
                    .allMatch(ms -> ms >= 1_000);
        } finally {
            Chromium.quit(sara);
            ada.logout();
        }
    }

    /**
     * A crashed browser behind the proxy, on two nodes: its record is free within 2 s of the kill
     * at the defaults (the node's next write to its stream goes through the proxy to the dead
     * client, the one after fails, then the 1.3 s grace), and the other person's open page offers
     * editing within 2.5 s: that page may be on the other node, which hears the release at its
     * feed's next read (every 100 ms), and the proxy is one hop more for its look. Worst of ten.
     * (On one node, the run command's default, the page follows within 2 s: {@code
     * ScreensInBrowserIT}.)
     */
    @Test
    void aBrowserKilledBehindTheProxyFreesItsRecordWithinTwoSeconds() throws Exception {
        String key = newRecord();
        String page = "configurator.xhtml?id=" + key.substring(key.indexOf(':') + 1);
        java.net.URL base = cluster.proxyUri().toURL();
        ChromeDriver omar = Chromium.start();
        ApiClient ada = new ApiClient(cluster.proxyUri(), Duration.ofSeconds(10));
        List<Long> millis = new ArrayList<>();
        List<Long> freed = new ArrayList<>();
        try {
            assertThat(ada.login("ada", "demo").status()).isEqualTo(200);
            Pages.login(omar, base, "omar");
            for (int trial = 1; trial <= 10; trial++) {
                ChromeDriver doomed = Chromium.start();
                try {
                    Pages.login(doomed, base, "sara");
                    doomed.get(base + page);
                    assertThat(Pages.testId(doomed, "lock-status")).isEqualTo("You are editing");
                    omar.get(base + page);
                    assertThat(Pages.testId(omar, "lock-status"))
                            .startsWith("Being edited by Sara");
                    java.time.Instant killedAt = java.time.Instant.now();
                    long killed = System.nanoTime();
                    Chromium.kill(doomed);
                    await("trial " + trial + ": Omar's open page offers editing")
                            .atMost(Duration.ofSeconds(5))
                            .pollInterval(Duration.ofMillis(20))
                            .until(
                                    () ->
                                            !omar.findElements(
                                                            org.openqa.selenium.By.cssSelector(
                                                                    "[data-testid=edit-now]"))
                                                    .isEmpty());
                    millis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));
                    assertThat(ada.send("GET", "api/locks/" + key, null).status())
                            .as("the lock is free")
                            .isEqualTo(404);
                    freed.add(
                            java.time.Duration.between(
                                            killedAt,
                                            java.time.Instant.parse(
                                                    lastEvent(ada, key).getString("at")))
                                    .toMillis());
                } finally {
                    Chromium.quit(doomed);
                }
            }
            System.out.printf(
                    "Behind the proxy, browser killed -> released (VIEW_CLOSED) after %s ms, the other"
                            + " page offers editing after %s ms%n",
                    freed, millis);
            assertThat(freed.stream().mapToLong(Long::longValue).max().orElseThrow())
                    .as("the record free: the worst of ten, ms (all: %s)", freed)
                    .isLessThanOrEqualTo(2_000L);
            assertThat(millis.stream().mapToLong(Long::longValue).max().orElseThrow())
                    .as("the other page: the worst of ten, ms (all: %s)", millis)
                    .isLessThanOrEqualTo(2_500L);
            assertThat(eventTypes(ada, key)).contains("VIEW_CLOSED");
        } finally {
            Chromium.quit(omar);
            ada.logout();
        }
    }

    /** A configurator of its own for one test. */
    private static String newRecord() throws java.sql.SQLException {
        return cluster.addConfigurators(1).stream()
                .filter(k -> k.matches("configurator:[0-9]+"))
                .findFirst()
                .orElseThrow();
    }

    /** The token {@code key} is held with, or -1 when it is free (or the answer did not come). */
    private static long heldToken(ApiClient admin, String key) {
        ApiClient.Answer a = admin.send("GET", "api/locks/" + key, null);
        return a.status() == 200 ? a.json().getJsonNumber("token").longValue() : -1;
    }

    /** The newest history row of {@code key}. */
    private static JsonObject lastEvent(ApiClient admin, String key) {
        ApiClient.Answer a =
                admin.send("GET", "api/locks/events?resource=" + key + "&limit=1", null);
        assertThat(a.status()).isEqualTo(200);
        return Json.createReader(new StringReader(a.body())).readArray().getJsonObject(0);
    }

    /** The types of the newest history rows of {@code key}, newest first. */
    private static List<String> eventTypes(ApiClient admin, String key) {
        ApiClient.Answer a =
                admin.send("GET", "api/locks/events?resource=" + key + "&limit=100", null);
        assertThat(a.status()).isEqualTo(200);
        return Json.createReader(new StringReader(a.body())).readArray().stream()
                .map(e -> e.asJsonObject().getString("type"))
                .toList();
    }

    private static long token(ApiClient admin, String key) {
        ApiClient.Answer a = admin.send("GET", "api/locks/" + key, null);
        assertThat(a.status()).as("%s is held", key).isEqualTo(200);
        return a.json().getJsonNumber("token").longValue();
    }

    // --- helpers ---

    /** What node {@code n} says it has served (its readiness answer, read on the node itself). */
    private static long served(int n) {
        try {
            HttpResponse<String> r =
                    HttpClient.newHttpClient()
                            .send(
                                    HttpRequest.newBuilder(cluster.uri(n).resolve("/health/ready"))
                                            .timeout(Duration.ofSeconds(5))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
            JsonObject health = Json.createReader(new StringReader(r.body())).readObject();
            for (JsonValue check : health.getJsonArray("checks")) {
                JsonObject c = check.asJsonObject();
                if (c.getString("name").equals("node-drain")) {
                    JsonValue v = c.getJsonObject("data").get("requestsServed");
                    return Long.parseLong(
                            v instanceof jakarta.json.JsonString t ? t.getString() : v.toString());
                }
            }
            throw new AssertionError("No node-drain check in " + r.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void awaitNews(List<Long> news, int count, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (news.size() < count) {
            assertThat(System.nanoTime()).as("lock news number " + count).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    /** Sends {@code request} to the proxy's plain port and reads what comes back within 5 s. */
    private static String rawExchange(String request) throws IOException {
        return rawExchange(request, Duration.ofSeconds(5));
    }

    /** The same, waiting at most {@code wait} for the answer. */
    private static String rawExchange(String request, Duration wait) throws IOException {
        URI proxy = cluster.proxyUri();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(proxy.getHost(), proxy.getPort()), 5_000);
            socket.setSoTimeout((int) wait.toMillis());
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            byte[] buffer = new byte[4096];
            int n;
            try {
                n = socket.getInputStream().read(buffer);
            } catch (SocketTimeoutException | java.net.SocketException e) {
                return "";
            }
            return n < 0 ? "" : new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
        }
    }
}
