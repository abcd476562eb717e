package com.editlock.it.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The heap of the Payara node under test, read from outside as an operator would: the process that
 * listens on the test's port (found with {@code ss}), a full collection and its heap summary (both
 * with the JDK's {@code jcmd}).
 */
public final class NodeHeap {

    private static final Pattern PID = Pattern.compile("pid=(\\d+)");

    /**
     * "heap total 191488K, used 66239K" (Java 17); "heap total reserved 524288K, committed 191488K,
     * used 66239K" (Java 25).
     */
    private static final Pattern USED =
            Pattern.compile("heap\\s+total (?:reserved \\d+K, committed )?\\d+K, used (\\d+)K");

    private final long pid;

    private final int port;

    private NodeHeap(long pid, int port) {
        this.pid = pid;
        this.port = port;
    }

    /** The node that listens on {@code port} on this machine. */
    public static NodeHeap listeningOn(int port) throws IOException, InterruptedException {
        String listeners = run("ss", "-Hltnp", "sport = :" + port);
        Matcher m = PID.matcher(listeners);
        if (!m.find()) {
            throw new AssertionError(
                    "No process found listening on port " + port + ": " + listeners);
        }
        return new NodeHeap(Long.parseLong(m.group(1)), port);
    }

    /**
     * The node's side of the connection that {@code client} opened to it, as {@code ss} shows it
     * (state first, then what waits in its receive and send queues), or an empty string once the
     * node has let go of it entirely.
     */
    public String sideOf(java.net.Socket client) throws IOException, InterruptedException {
        return run(
                        "ss",
                        "-Htn",
                        "state",
                        "all",
                        "( sport = :" + port + " and dport = :" + client.getLocalPort() + " )")
                .strip();
    }

    /**
     * Every thread of the node now, virtual threads included ({@code jcmd Thread.dump_to_file}:
     * {@code Thread.print} leaves virtual threads out).
     */
    public String threadDump() throws IOException, InterruptedException {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("editlock-threads");
        java.nio.file.Path file = dir.resolve("threads.txt");
        try {
            run(jcmd(), String.valueOf(pid), "Thread.dump_to_file", file.toString());
            return java.nio.file.Files.readString(file, StandardCharsets.UTF_8);
        } finally {
            java.nio.file.Files.deleteIfExists(file);
            java.nio.file.Files.delete(dir);
        }
    }

    /** The node process's threads now ({@code /proc/<pid>/status}). */
    public int threads() throws IOException {
        java.util.regex.Matcher m =
                Pattern.compile("(?m)^Threads:\\s+(\\d+)$")
                        .matcher(
                                java.nio.file.Files.readString(
                                        java.nio.file.Path.of("/proc/" + pid + "/status")));
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    /** The node process's open file descriptors now (sockets included). */
    public long fileDescriptors() throws IOException {
        try (var fds = java.nio.file.Files.list(java.nio.file.Path.of("/proc/" + pid + "/fd"))) {
            return fds.count();
        }
    }

    public java.time.Duration cpu() throws IOException {
        String stat =
                java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
        return java.time.Duration.ofMillis(ticks * 10); // USER_HZ is 100 on Linux
    }

    /** Bytes of heap in use after a full garbage collection. */
    public long usedAfterGc() throws IOException, InterruptedException {
        run(jcmd(), String.valueOf(pid), "GC.run");
        String info = run(jcmd(), String.valueOf(pid), "GC.heap_info");
        Matcher m = USED.matcher(info);
        if (!m.find()) {
            throw new AssertionError("jcmd printed no heap summary: " + info);
        }
        return Long.parseLong(m.group(1)) * 1024;
    }

    /**
     * The heap's summary line now, without a collection ("garbage-first heap total …, used …"), or
     * what went wrong reading it (a node out of memory may not answer).
     */
    public String heapInfo() {
        try {
            String info = run(jcmd(), String.valueOf(pid), "GC.heap_info");
            return info.lines()
                    .filter(l -> l.contains("total") && l.contains("used"))
                    .findFirst()
                    .map(String::strip)
                    .orElse(info.strip());
        } catch (IOException | RuntimeException e) {
            return "unreadable (" + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unread";
        }
    }

    /** Bytes per class on the heap, live objects only (the histogram forces a full collection). */
    public java.util.Map<String, Long> histogram() throws IOException, InterruptedException {
        java.util.Map<String, Long> bytes = new java.util.HashMap<>();
        Matcher m =
                Pattern.compile("^\\s*\\d+:\\s+\\d+\\s+(\\d+)\\s+(\\S+)", Pattern.MULTILINE)
                        .matcher(run(jcmd(), String.valueOf(pid), "GC.class_histogram"));
        while (m.find()) {
            bytes.merge(m.group(2), Long.parseLong(m.group(1)), Long::sum);
        }
        return bytes;
    }

    /** The classes that grew most from {@code before} to {@code after}, one per line. */
    public static String growth(
            java.util.Map<String, Long> before, java.util.Map<String, Long> after) {
        return growth(before, after, 12);
    }

    /** The {@code limit} classes that grew most from {@code before} to {@code after}. */
    public static String growth(
            java.util.Map<String, Long> before, java.util.Map<String, Long> after, int limit) {
        return after.entrySet().stream()
                .map(
                        e ->
                                java.util.Map.entry(
                                        e.getKey(),
                                        e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(limit)
                .map(e -> String.format("  %+,12d B  %s", e.getValue(), e.getKey()))
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    private static String jcmd() {
        return java.nio.file.Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    }

    private static String run(String... command) throws IOException, InterruptedException {
        java.nio.file.Path out = java.nio.file.Files.createTempFile("editlock-jcmd", ".txt");
        try {
            Process p =
                    new ProcessBuilder(List.of(command))
                            .redirectErrorStream(true)
                            .redirectOutput(out.toFile()) // a histogram is larger than a pipe holds
                            .start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in 60 s");
            }
            return java.nio.file.Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            java.nio.file.Files.deleteIfExists(out);
        }
    }
}
