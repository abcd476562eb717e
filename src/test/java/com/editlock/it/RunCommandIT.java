package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.editlock.it.browser.Chromium;
import com.editlock.it.browser.Pages;
import com.editlock.it.node.ApiClient;
import com.editlock.it.node.Tls;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The run command's two-node start as a user makes it ({@code LOCKS_NODES=2 mvn -Prun} runs this
 * launcher with the same properties): its own embedded database, its own certificate, HAProxy in
 * front. What the proxy does in detail is {@code ProxyIT}'s; this checks what the run command
 * wires: one address, the https port with HTTP/2 and the certificate it made, the nodes believing
 * its proxy's {@code X-Forwarded-For}, and that Ctrl-C leaves nothing running.
 */
class RunCommandIT {

    @Test
    void twoNodesFromTheRunCommandAnswerAtOneAddressBehindItsProxy() throws Exception {
        Path data = Files.createTempDirectory("editlock-run-");
        int http = freePort();
        int https = freePort();
        List<String> command =
                new ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-Dpayara.microJar=" + System.getProperty("payara.microJar"),
                                "-Deditlock.war=" + System.getProperty("editlock.war"),
                                "-Deditlock.serverConfig="
                                        + System.getProperty("editlock.serverConfig"),
                                "-Deditlock.dataDir=" + data,
                                "-cp",
                                System.getProperty("java.class.path"),
                                "com.editlock.launcher.Launcher"));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("LOCKS_"));
        env.put("LOCKS_NODES", "2");
        env.put("LOCKS_HTTP_PORT", Integer.toString(http));
        env.put("LOCKS_HTTPS_PORT", Integer.toString(https));
        Process run = pb.start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        List<String> all = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> read(run.getInputStream(), lines, all), "run-output");
        reader.setDaemon(true);
        reader.start();
        try {
            awaitLine(lines, "ready: ", Duration.ofMinutes(5), all);
            assertThat(all).contains("ready: http://localhost:" + http + "/");
            String httpsLine = awaitLine(lines, "https: ", Duration.ofSeconds(5), all);
            assertThat(httpsLine).startsWith("https: https://localhost:" + https + "/ (HTTP/2");
            List<String> nodes = all.stream().filter(l -> l.startsWith("node ")).toList();
            assertThat(nodes).hasSize(2);

            // HTTP/2 over TLS with the certificate the run command made and kept.
            Path certificate = data.resolve("tls").resolve("editlock.pem");
            HttpResponse<String> page =
                    HttpClient.newBuilder()
                            .version(HttpClient.Version.HTTP_2)
                            .sslContext(Tls.trusting(certificate))
                            .build()
                            .send(
                                    HttpRequest.newBuilder(
                                                    URI.create(
                                                            "https://localhost:"
                                                                    + https
                                                                    + "/login.xhtml"))
                                            .timeout(Duration.ofSeconds(10))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.version()).isEqualTo(HttpClient.Version.HTTP_2);

            // The nodes know the client behind the proxy: a guesser from 127.0.0.2 waits, sara
            // from 127.0.0.3 does not.
            URI base = URI.create("http://localhost:" + http + "/");
            List<Integer> guesses = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                guesses.add(
                        new ApiClient(
                                        base,
                                        Duration.ofSeconds(10),
                                        InetAddress.getByName("127.0.0.2"))
                                .login("sara", "wrong-" + i)
                                .status());
            }
            assertThat(guesses).containsExactly(401, 401, 401, 401, 401, 429);
            long start = System.nanoTime();
            assertThat(
                            new ApiClient(
                                            base,
                                            Duration.ofSeconds(10),
                                            InetAddress.getByName("127.0.0.3"))
                                    .login("sara", "demo")
                                    .status())
                    .isEqualTo(200);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(2_000);

            aFrozenBrowserLosesItsLockWithinFifteenSecondsAtTheDefaults(base);

            // Each node's drain file is the one it was told.
            Matcher drain = Pattern.compile("drain it: touch (.+)\\)").matcher(nodes.get(1));
            assertThat(drain.find()).as(nodes.get(1)).isTrue();
            assertThat(Path.of(drain.group(1)).getParent()).isEqualTo(data.resolve("drain"));

            // A node that dies is started again, as systemd would, and says so with its new pid.
            Matcher pid = Pattern.compile("\\(pid ([0-9]+);").matcher(nodes.get(1));
            assertThat(pid.find()).as(nodes.get(1)).isTrue();
            ProcessHandle second = ProcessHandle.of(Long.parseLong(pid.group(1))).orElseThrow();
            second.destroyForcibly(); // kill -9: a crash
            String again =
                    awaitLine(lines, "node 2: serving again (pid ", Duration.ofMinutes(3), all);
            Matcher newPid = Pattern.compile("\\(pid ([0-9]+)\\)").matcher(again);
            assertThat(newPid.find()).as(again).isTrue();
            assertThat(Long.parseLong(newPid.group(1))).isNotEqualTo(second.pid());
            assertThat(
                            ProcessHandle.of(Long.parseLong(newPid.group(1)))
                                    .map(ProcessHandle::isAlive))
                    .as("the new node 2")
                    .contains(true);
            assertThat(all).anyMatch(l -> l.startsWith("node 2 (pid " + second.pid() + ") exited"));
            ApiClient through = new ApiClient(base, Duration.ofSeconds(10));
            assertThat(through.login("omar", "demo").status()).isEqualTo(200);
        } finally {
            run.destroy(); // SIGTERM, as Ctrl-C: the proxy, the nodes, then the database stop
            boolean stopped = run.waitFor(90, TimeUnit.SECONDS);
            if (!stopped) {
                run.destroyForcibly();
            }
            assertThat(stopped)
                    .as("the run command stops on SIGTERM; its output: %s", all)
                    .isTrue();
        }
        assertThat(portIsFree(http)).as("the proxy is gone").isTrue();
        assertThat(portIsFree(https)).isTrue();
        assertThat(
                        ProcessHandle.allProcesses()
                                .filter(
                                        p ->
                                                p.info()
                                                        .commandLine()
                                                        .orElse("")
                                                        .contains(data.toString()))
                                .toList())
                .as("nothing the run command started is left running")
                .isEmpty();
    }

    /**
     * At the defaults (lease 10 s, sweep 2 s, a beat every 2 s, sessions of 30 minutes) a frozen
     * browser ({@code SIGSTOP}: its connections stay open, its beats stop) loses its lock to the
     * lease: {@code EXPIRED} within lease + sweep + 1 s (13 s) of the freeze, and the other
     * person's open page offers editing within 15 s.
     */
    private static void aFrozenBrowserLosesItsLockWithinFifteenSecondsAtTheDefaults(URI base)
            throws Exception {
        Chromium.require();
        ChromeDriver sara = Chromium.start();
        ChromeDriver omar = Chromium.start();
        try {
            Pages.login(sara, base.toURL(), "sara");
            sara.get(base + "configurator.xhtml?id=1");
            assertThat(Pages.testId(sara, "lock-status")).isEqualTo("You are editing");
            Pages.login(omar, base.toURL(), "omar");
            omar.get(base + "configurator.xhtml?id=1");
            assertThat(Pages.testId(omar, "lock-status")).startsWith("Being edited by Sara");

            Instant frozenAt = Instant.now();
            Chromium.signal(sara, "STOP");
            await("Omar's open page offers editing")
                    .atMost(Duration.ofSeconds(15))
                    .pollInterval(Duration.ofMillis(100))
                    .until(
                            () ->
                                    !omar.findElements(By.cssSelector("[data-testid=edit-now]"))
                                            .isEmpty());
            System.out.printf(
                    "At the defaults: browser frozen -> the other page offers editing after %d"
                            + " ms%n",
                    Duration.between(frozenAt, Instant.now()).toMillis());
            ApiClient ada = new ApiClient(base, Duration.ofSeconds(10));
            assertThat(ada.login("ada", "demo").status()).isEqualTo(200);
            JsonObject last =
                    Json.createReader(
                                    new StringReader(
                                            ada.send(
                                                            "GET",
                                                            "api/locks/events?resource=configurator:1&limit=1",
                                                            null)
                                                    .body()))
                            .readArray()
                            .getJsonObject(0);
            assertThat(last.getString("type")).as("ended by its lease").isEqualTo("EXPIRED");
            assertThat(Instant.parse(last.getString("at")))
                    .as("within lease + sweep + 1 s of the freeze")
                    .isBefore(frozenAt.plusSeconds(13));
        } finally {
            Chromium.signal(sara, "CONT");
            Chromium.quit(sara);
            Chromium.quit(omar);
        }
    }

    private static void read(InputStream in, BlockingQueue<String> lines, List<String> all) {
        try (BufferedReader r =
                new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                all.add(line);
                lines.add(line);
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    private static String awaitLine(
            BlockingQueue<String> lines, String prefix, Duration timeout, List<String> all)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line =
                    lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertThat(line)
                    .as("a line starting %s; the output so far: %s", prefix, all)
                    .isNotNull();
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static boolean portIsFree(int port) {
        try (ServerSocket s = new ServerSocket(port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
