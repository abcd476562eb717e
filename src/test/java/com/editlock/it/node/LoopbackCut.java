package com.editlock.it.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Loses every packet to and from one TCP port on the loopback interface, as a laptop that vanished
 * (lid shut, out of the Wi-Fi) leaves its connections: no FIN, no RST, nothing acknowledged. Linux
 * traffic control on {@code lo}: an {@code htb} root whose unclassified packets pass untouched (its
 * default class does not exist), one class that lets a byte a second through, and two {@code u32}
 * filters that send the port's packets (either direction) to it. Its queue takes them, so to the
 * sending kernel they left and were lost on the way, as on a network. (A queue that refused them
 * would be local congestion, which Linux retries on another schedule: it gave a connection up after
 * 9 s with no time-out set.) Loopback only; needs root and {@code tc} (iproute2). {@link #close()}
 * removes it all, and so does the JVM's end.
 *
 * <p>Where the machine cannot cut (not root, no {@code tc}, a kernel without the modules), a test
 * that needs it is skipped on a developer's machine and fails in CI ({@code CI=true}).
 */
public final class LoopbackCut implements AutoCloseable {

    private static final Object ONE_AT_A_TIME = new Object();
    private static LoopbackCut current;

    private final int port;
    private final Thread undoAtExit = new Thread(LoopbackCut::undo, "loopback-cut-undo");

    private LoopbackCut(int port) {
        this.port = port;
    }

    /**
     * Cuts {@code port} now. In CI the cut must work; elsewhere a machine that cannot cut skips the
     * calling test.
     */
    public static LoopbackCut of(int port) throws IOException, InterruptedException {
        if (port <= 0 || port > 65_535) {
            throw new IllegalArgumentException("a TCP port: " + port);
        }
        synchronized (ONE_AT_A_TIME) {
            if (current != null) {
                throw new IllegalStateException("port " + current.port + " is cut already");
            }
            undo(); // a cut a killed run left behind
            String why =
                    firstFailure(
                            List.of(
                                    "tc qdisc add dev lo root handle 1: htb default 1",
                                    "tc class add dev lo parent 1: classid 1:2 htb rate 8bit ceil 8bit burst 1b cburst 1b",
                                    "tc qdisc add dev lo parent 1:2 handle 2: pfifo limit 10000",
                                    "tc filter add dev lo parent 1: protocol ip prio 1 u32 match ip dport "
                                            + port
                                            + " 0xffff flowid 1:2",
                                    "tc filter add dev lo parent 1: protocol ip prio 1 u32 match ip sport "
                                            + port
                                            + " 0xffff flowid 1:2"));
            if (why != null) {
                undo();
                if ("true".equals(System.getenv("CI"))) {
                    throw new IllegalStateException(
                            "CI needs a loopback packet cut (root, tc): " + why);
                }
                Assumptions.abort("This machine cannot cut a loopback port (root, tc): " + why);
            }
            current = new LoopbackCut(port);
            Runtime.getRuntime().addShutdownHook(current.undoAtExit);
            return current;
        }
    }

    /** Lets the port's packets through again. */
    @Override
    public void close() {
        synchronized (ONE_AT_A_TIME) {
            if (current != this) {
                return;
            }
            undo();
            current = null;
            try {
                Runtime.getRuntime().removeShutdownHook(undoAtExit);
            } catch (IllegalStateException exiting) {
                // the hook runs anyway
            }
        }
    }

    private static void undo() {
        try {
            String shown = output(List.of("tc", "qdisc", "show", "dev", "lo"));
            if (shown.contains("htb 1:")) {
                run("tc qdisc del dev lo root");
            }
        } catch (IOException e) {
            // no tc: nothing was cut
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String firstFailure(List<String> commands)
            throws IOException, InterruptedException {
        for (String command : commands) {
            String why = run(command);
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    /** Runs a command; null when it succeeded, else what it said. */
    private static String run(String command) throws IOException, InterruptedException {
        List<String> all = List.of(command.split(" "));
        Process p;
        try {
            p = new ProcessBuilder(all).redirectErrorStream(true).start();
        } catch (IOException e) {
            return "cannot run " + all.get(0) + ": " + e.getMessage();
        }
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return String.join(" ", all) + ": no answer in 10 s";
        }
        return p.exitValue() == 0 ? null : String.join(" ", all) + ": " + said;
    }

    private static String output(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return said;
    }
}
