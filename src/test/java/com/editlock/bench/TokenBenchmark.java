package com.editlock.bench;

import com.editlock.it.browser.Browser;
import com.editlock.it.node.Cluster;
import jakarta.json.Json;
import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * What an API call costs the node with a personal API token, with a session cookie, and with HTTP
 * Basic on every call (no cookie kept), against one PBKDF2 verification at the application's
 * parameters. The node's CPU is read from its process (all threads), less what the idle node spends
 * in the same time; the PBKDF2 baseline is measured on this JVM's thread in the same run.
 */
public final class TokenBenchmark {

    private TokenBenchmark() {}

    public static void run(Report report, boolean quick) throws Exception {
        try (Cluster cluster = Cluster.start(1, "bench-tokens")) {
            Browser sara = new Browser(cluster.uri(0)).basic("sara", "demo");
            HttpResponse<String> made =
                    sara.postJson("api/tokens", "{\"name\":\"benchmark\",\"days\":1}");
            PageBenchmarks.require(made.statusCode() == 201, "token made: " + made.body());
            String token =
                    Json.createReader(new StringReader(made.body()))
                            .readObject()
                            .getString("token");
            Browser script = new Browser(cluster.uri(0)).bearer(token);
            Browser session = new Browser(cluster.uri(0)).basic("sara", "demo");
            session.get("api/locks"); // logs in once; the cookie carries the rest
            int tokenCalls = quick ? 300 : 2_000;
            int basicCalls = quick ? 10 : 40;
            // Warm-up of every path (JIT, pools, caches).
            for (int i = 0; i < tokenCalls / 2; i++) {
                call(script);
                call(session);
            }
            for (int i = 0; i < basicCalls / 4; i++) {
                call(new Browser(cluster.uri(0)).basic("sara", "demo"));
            }
            double idle = idleCpuMillisPerSecond(cluster, quick ? 2_000 : 5_000);
            // Token and session series alternate, three rounds each: the median of each kind.
            List<Double> tokenRounds = new ArrayList<>();
            List<Double> sessionRounds = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                tokenRounds.add(cpuPerCall(cluster, idle, tokenCalls, () -> call(script)));
                sessionRounds.add(cpuPerCall(cluster, idle, tokenCalls, () -> call(session)));
            }
            double tokenCpu = median(tokenRounds);
            double sessionCpu = median(sessionRounds);
            double basicCpu =
                    cpuPerCall(
                            cluster,
                            idle,
                            basicCalls,
                            () -> call(new Browser(cluster.uri(0)).basic("sara", "demo")));
            double pbkdf2 = pbkdf2Millis(quick ? 3 : 10);
            double tokenCheck = Math.max(0, tokenCpu - sessionCpu);
            double basicCheck = Math.max(0, basicCpu - sessionCpu);
            List<List<String>> rows = new ArrayList<>();
            rows.add(
                    row(
                            "API token (`Authorization: Bearer`)",
                            3 * tokenCalls,
                            tokenCpu,
                            tokenCheck,
                            pbkdf2));
            rows.add(row("session cookie (logged in once)", 3 * tokenCalls, sessionCpu, 0, pbkdf2));
            rows.add(
                    row(
                            "HTTP Basic on every call, no cookie (a password check and a new session"
                                    + " each)",
                            basicCalls,
                            basicCpu,
                            basicCheck,
                            pbkdf2));
            rows.add(
                    List.of(
                            "one PBKDF2-HMAC-SHA256 verification, 600,000 iterations (this JVM,"
                                    + " one thread)",
                            Integer.toString(quick ? 3 : 10),
                            Report.number(pbkdf2),
                            "—",
                            "**1**"));
            double ratio = 100 * tokenCheck / pbkdf2;
            report.target(
                    "100 token checks (token call − session call, node CPU) / one PBKDF2"
                            + " verification",
                    "< 1",
                    String.format("%.2f", ratio),
                    ratio < 1);
            report.heading("6. What an API call costs: tokens, sessions, passwords");
            report.text(
                    String.format(
                            """
                    One node; the client calls `GET /api/locks` (the caller's own locks) one after another, \
                    three rounds of %,d times with a personal API token (`Authorization: Bearer`: one SHA-256 and one indexed read \
                    per call, no session) alternating with three rounds of %,d in a session (logged in once with Basic, then the cookie), and \
                    %,d times with HTTP Basic and no cookie kept (every call checks the password and opens a \
                    session). Node CPU is the Payara process's CPU time over each series (all threads) less what the \
                    idle node spent in the same time (%.1f ms/s), divided by the calls (the median round). The caller's check is what a call costs beyond a \
                    session call. The baseline is one \
                    PBKDF2-HMAC-SHA256 verification at the application's parameters (600,000 iterations, 32-byte \
                    key) on one thread of this JVM, in the same run.""",
                            tokenCalls, tokenCalls, basicCalls, idle));
            report.table(
                    List.of(
                            "calls",
                            "samples",
                            "node CPU ms / call",
                            "of which the caller's check (less a session call)",
                            "100 checks / one PBKDF2"),
                    rows);
            report.text(
                    String.format(
                            "Checking a token costs the node %.2f ms of CPU per call beyond what a"
                                    + " session call costs (%.2f ms: the JAX-RS call itself, the"
                                    + " filters, the security context, the lock query), a password"
                                    + " %.1f ms: 100 token checks cost %.2f of one PBKDF2"
                                    + " verification, 100 password checks %.0f.",
                            tokenCheck, sessionCpu, basicCheck, ratio, 100 * basicCheck / pbkdf2));
        }
    }

    private static void call(Browser client) {
        HttpResponse<String> r = client.get("api/locks");
        PageBenchmarks.require(r.statusCode() == 200, "GET api/locks answered " + r.statusCode());
    }

    /** Node CPU ms per call over {@code calls} calls, less what the idle node spends. */
    private static double cpuPerCall(
            Cluster cluster, double idlePerSecond, int calls, Runnable call) {
        long start = System.nanoTime();
        Duration before = cluster.node(0).cpuTime();
        for (int i = 0; i < calls; i++) {
            call.run();
        }
        Duration used = cluster.node(0).cpuTime().minus(before);
        double seconds = (System.nanoTime() - start) / 1e9;
        return Math.max(0, used.toNanos() / 1e6 - idlePerSecond * seconds) / calls;
    }

    private static List<String> row(
            String label, int samples, double perCall, double check, double pbkdf2) {
        return List.of(
                label,
                String.format("%,d", samples),
                Report.number(perCall),
                check == 0 ? "—" : Report.number(check),
                check == 0 ? "—" : String.format("**%.2f**", 100 * check / pbkdf2));
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static double idleCpuMillisPerSecond(Cluster cluster, long millis)
            throws InterruptedException {
        Duration before = cluster.node(0).cpuTime();
        long start = System.nanoTime();
        Thread.sleep(millis); // the node alone, doing its timers and keep-alives
        Duration used = cluster.node(0).cpuTime().minus(before);
        return used.toNanos() / 1e6 / ((System.nanoTime() - start) / 1e9);
    }

    /** CPU ms of one PBKDF2 verification at the application's parameters, median of {@code n}. */
    private static double pbkdf2Millis(int n) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        SecretKeyFactory factory = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256");
        byte[] salt = new byte[32];
        List<Double> times = new ArrayList<>();
        for (int i = 0; i <= n; i++) {
            long cpu = threads.getCurrentThreadCpuTime();
            factory.generateSecret(new PBEKeySpec("demo".toCharArray(), salt, 600_000, 256))
                    .getEncoded();
            if (i > 0) { // the first one warms up
                times.add((threads.getCurrentThreadCpuTime() - cpu) / 1e6);
            }
        }
        times.sort(Double::compare);
        return times.get(times.size() / 2);
    }
}
