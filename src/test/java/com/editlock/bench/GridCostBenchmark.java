package com.editlock.bench;

import com.editlock.it.browser.Browser;
import com.editlock.it.node.Cluster;
import com.editlock.it.node.NodeHeap;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the data grid costs ({@code LOCKS_GRID=true} against the same two nodes with sessions in
 * memory, in the same run): heap per logged-in session with an open edit page, bytes the grid moves
 * per request of each kind, edit page p50/p99 under 10 users, a release reaching 50 open pages on
 * two nodes (p50/p99), and a node's restart (SIGTERM, then started again until it serves). Run with
 * {@code mvn -Pbench-grid}; it prints a Markdown table with the date and commit.
 *
 * <p>Grid bytes are the bytes acknowledged on every TCP connection to or from a grid port ({@code
 * ss -tin}: {@code bytes_acked}), so both members' traffic, both directions, heartbeats of the grid
 * included (a few hundred bytes a second: measured alone first and subtracted).
 */
public final class GridCostBenchmark {

    private static final int SESSIONS = Integer.getInteger("bench.grid.sessions", 100);
    private static final int REQUESTS = 200;

    private record Figures(
            long heapPerSession,
            double pageBytes,
            double beatBytes,
            double saveBytes,
            double editP50,
            double editP99,
            double pushP50,
            double pushP99,
            long restartMillis) {}

    public static void main(String[] args) throws Exception {
        Figures memory = measure(false);
        Figures grid = measure(true);
        System.out.printf(
                "%nWhat the data grid costs: two nodes behind HAProxy, %d sessions, %d cores, %s%n%n",
                SESSIONS, Runtime.getRuntime().availableProcessors(), RunStamp.now());
        System.out.println("| | sessions in memory | sessions in the grid | grid / memory |");
        System.out.println("|---|---:|---:|---:|");
        row(
                "heap per session with an open edit page, KB",
                memory.heapPerSession / 1024.0,
                grid.heapPerSession / 1024.0);
        row("grid bytes per edit page opened", memory.pageBytes, grid.pageBytes);
        row("grid bytes per heartbeat", memory.beatBytes, grid.beatBytes);
        row("grid bytes per save (API PUT)", memory.saveBytes, grid.saveBytes);
        row("edit page p50 ms, 10 users", memory.editP50, grid.editP50);
        row("edit page p99 ms, 10 users", memory.editP99, grid.editP99);
        row("a release reaching 50 pages on two nodes, p50 ms", memory.pushP50, grid.pushP50);
        row("a release reaching 50 pages on two nodes, p99 ms", memory.pushP99, grid.pushP99);
        row(
                "a node's restart (SIGTERM to serving again), s",
                memory.restartMillis / 1000.0,
                grid.restartMillis / 1000.0);
    }

    private static void row(String what, double memory, double grid) {
        System.out.printf(
                "| %s | %s | %s | %s |%n",
                what,
                Report.number(memory),
                Report.number(grid),
                memory == 0 ? "–" : String.format("%.2f", grid / memory));
    }

    private static Figures measure(boolean grid) throws Exception {
        try (Cluster cluster =
                Cluster.startBehindProxy(
                        2,
                        grid ? "cost-grid" : "cost-memory",
                        List.of(
                                "-Dlocks.lease.seconds=600",
                                "-Dlocks.session.timeout.seconds=3600"),
                        grid)) {
            List<String> keys = cluster.addConfigurators(SESSIONS);
            List<Long> ids =
                    keys.stream()
                            .filter(k -> k.matches("configurator:\\d+"))
                            .map(k -> Long.parseLong(k.substring("configurator:".length())))
                            .toList();
            List<Integer> gridPorts =
                    grid ? List.of(cluster.gridPort(0), cluster.gridPort(1)) : List.of();

            // Heap: node 1 before and after SESSIONS sessions, each with its own edit page open.
            NodeHeap heap = NodeHeap.listeningOn(cluster.node(0).port());
            long before = heap.usedAfterGc();
            List<Browser> users = new ArrayList<>();
            for (int i = 0; i < SESSIONS; i++) {
                Browser b = cluster.browser(0);
                PageBenchmarks.require(b.login("sara", "demo").statusCode() == 200, "login");
                HttpResponse<String> page = b.get("configurator.xhtml?id=" + ids.get(i));
                PageBenchmarks.require(
                        page.body().contains("data-testid=\"edit-form\""), "an edit page");
                users.add(b);
            }
            long heapPerSession = (heap.usedAfterGc() - before) / SESSIONS;

            // Grid bytes per request kind, less the grid's own chatter over the same time.
            double pageBytes =
                    perRequest(
                            gridPorts,
                            REQUESTS,
                            i -> users.get(i % 50).get("configurator.xhtml?id=" + ids.get(i % 50)));
            double beatBytes =
                    perRequest(
                            gridPorts,
                            REQUESTS,
                            i -> users.get(i % 50).post("api/locks/heartbeat"));
            double saveBytes =
                    perRequest(
                            gridPorts,
                            REQUESTS,
                            i -> {
                                Browser u = users.get(i % 50);
                                String path = "api/configurators/" + ids.get(i % 50);
                                String body = u.get(path).body();
                                return u.send("PUT", path, body);
                            });

            // Edit page p50/p99, 10 users on node 1, after a warm-up.
            PageBenchmarks.Load warm = new PageBenchmarks.Load();
            PageBenchmarks.drive(users, ids, 10, false, 2_000, warm);
            PageBenchmarks.Load edit = new PageBenchmarks.Load();
            PageBenchmarks.drive(users, ids, 10, false, 10_000, edit);
            PageBenchmarks.require(edit.failures.get() == 0, "every edit page answered");

            // A release reaching 50 read-only pages, half on each node.
            List<Long> push =
                    PageBenchmarks.fanOut(
                            cluster.node(0), List.of(cluster.node(0), cluster.node(1)), 1, 50, 20);
            List<Long> sorted = new ArrayList<>(push);
            Collections.sort(sorted);

            // A node's restart: SIGTERM, then started again until it serves.
            long start = System.nanoTime();
            cluster.node(1).stop();
            cluster.startNode(1);
            long restart = (System.nanoTime() - start) / 1_000_000;

            return new Figures(
                    heapPerSession,
                    pageBytes,
                    beatBytes,
                    saveBytes,
                    edit.quantile(0.5),
                    edit.quantile(0.99),
                    at(sorted, 0.5) / 1000.0,
                    at(sorted, 0.99) / 1000.0,
                    restart);
        }
    }

    private interface Request {
        HttpResponse<String> send(int i) throws Exception;
    }

    /** The grid bytes per request of {@code count} requests, less the grid's idle traffic. */
    private static double perRequest(List<Integer> gridPorts, int count, Request request)
            throws Exception {
        if (gridPorts.isEmpty()) {
            for (int i = 0; i < count; i++) {
                PageBenchmarks.require(request.send(i).statusCode() < 300, "a request answered");
            }
            return 0;
        }
        long idleStart = System.nanoTime();
        long idleBefore = gridBytes(gridPorts);
        Thread.sleep(2_000);
        double idlePerNano =
                (gridBytes(gridPorts) - idleBefore) / (double) (System.nanoTime() - idleStart);
        long start = System.nanoTime();
        long before = gridBytes(gridPorts);
        for (int i = 0; i < count; i++) {
            PageBenchmarks.require(request.send(i).statusCode() < 300, "a request answered");
        }
        Thread.sleep(500); // asynchronous backups arrive
        long moved = gridBytes(gridPorts) - before;
        double idle = idlePerNano * (System.nanoTime() - start);
        return Math.max(0, moved - idle) / count;
    }

    private static final Pattern ACKED = Pattern.compile("bytes_acked:(\\d+)");

    /** Bytes acknowledged so far on every connection to or from one of {@code ports}. */
    private static long gridBytes(List<Integer> ports) throws IOException, InterruptedException {
        List<String> filter = new ArrayList<>(List.of("ss", "-Htin"));
        StringBuilder expr = new StringBuilder();
        for (int port : ports) {
            expr.append(expr.isEmpty() ? "" : " or ")
                    .append("sport = :")
                    .append(port)
                    .append(" or dport = :")
                    .append(port);
        }
        filter.add(expr.toString());
        Process ss = new ProcessBuilder(filter).redirectErrorStream(true).start();
        String out = new String(ss.getInputStream().readAllBytes());
        ss.waitFor();
        long total = 0;
        Matcher m = ACKED.matcher(out);
        while (m.find()) {
            total += Long.parseLong(m.group(1));
        }
        return total;
    }

    private static double at(List<Long> sorted, double quantile) {
        return sorted.get(
                Math.min(sorted.size() - 1, (int) Math.ceil(quantile * sorted.size()) - 1));
    }
}
