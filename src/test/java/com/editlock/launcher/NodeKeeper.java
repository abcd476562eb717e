package com.editlock.launcher;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Keeps the run command's nodes up, as systemd's {@code Restart=always} or a Kubernetes Deployment
 * would: a node that exits for any reason other than the run command's own stop — a SIGTERM of a
 * rolling restart, a crash, {@code kill -9} — is started again on the same port with the same
 * settings (and, with {@code LOCKS_GRID=true}, the same grid port), and the new pid is printed. So
 * a rolling restart is "signal one node, wait for {@code serving again}, signal the next".
 *
 * <p>A node that cannot start, or that exits again within {@link #STABLE} of its start, is tried
 * again after a pause that doubles from {@link #FIRST_PAUSE} up to {@link #LONGEST_PAUSE}, as
 * Kubernetes backs off a crash loop; every failure is printed. Before each start the keeper waits
 * {@link #FIRST_PAUSE} and looks again whether the run command is stopping: Ctrl-C signals the
 * nodes and the run command at the same moment, and a node that ended by it must stay ended.
 */
final class NodeKeeper {

    /** Starts node {@code n} and returns it once it serves. */
    interface Starter {
        PayaraNode start(int n) throws Exception;
    }

    static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
    static final Duration LONGEST_PAUSE = Duration.ofSeconds(60);

    /** A node that served this long before it exited starts again after the first pause. */
    static final Duration STABLE = Duration.ofMinutes(2);

    private final List<PayaraNode> nodes;
    private final Starter starter;
    private final PrintStream out;
    private final List<Thread> watchers = new ArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean stopping;

    /** Watches {@code nodes} (already serving; the list is updated in place under its monitor). */
    NodeKeeper(List<PayaraNode> nodes, Starter starter, PrintStream out) {
        this.nodes = nodes;
        this.starter = starter;
        this.out = out;
    }

    void start() {
        for (int i = 0; i < nodes.size(); i++) {
            int n = i;
            watchers.add(Thread.ofPlatform().name("keep-node-" + (n + 1)).start(() -> keep(n)));
        }
    }

    /** The pause before the {@code failures}-th start in a row that did not last. */
    static Duration pause(int failures) {
        long seconds = FIRST_PAUSE.toSeconds() << Math.min(Math.max(0, failures - 1), 10);
        return seconds >= LONGEST_PAUSE.toSeconds() ? LONGEST_PAUSE : Duration.ofSeconds(seconds);
    }

    private void keep(int n) {
        int failures = 0;
        long started = System.nanoTime();
        try {
            while (!stopping) {
                PayaraNode node;
                synchronized (nodes) {
                    node = nodes.get(n);
                }
                int code = node.waitFor();
                if (stopping) {
                    return;
                }
                boolean lasted = System.nanoTime() - started >= STABLE.toNanos();
                failures = lasted ? 1 : failures + 1;
                Duration pause = pause(failures);
                Thread.sleep(pause.toMillis()); // Ctrl-C: the run command's stop comes meanwhile
                if (stopping) {
                    return;
                }
                out.println(
                        "node "
                                + (n + 1)
                                + " (pid "
                                + node.pid()
                                + ") exited with code "
                                + code
                                + ": starting it again …");
                while (true) {
                    long begin = System.nanoTime();
                    try {
                        PayaraNode again = starter.start(n);
                        synchronized (nodes) {
                            if (stopping) {
                                again.stop();
                                return;
                            }
                            nodes.set(n, again);
                        }
                        started = System.nanoTime();
                        out.println(
                                "node "
                                        + (n + 1)
                                        + ": serving again (pid "
                                        + again.pid()
                                        + "), "
                                        + Duration.ofNanos(started - begin).toSeconds()
                                        + " s after its start");
                        break;
                    } catch (InterruptedException e) {
                        throw e;
                    } catch (Exception e) {
                        failures++;
                        pause = pause(failures);
                        out.println(
                                "node "
                                        + (n + 1)
                                        + " could not start ("
                                        + e.getMessage()
                                        + "): trying again in "
                                        + pause.toSeconds()
                                        + " s");
                        Thread.sleep(pause.toMillis());
                        if (stopping) {
                            return;
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            // the run command stops
        }
    }

    /**
     * Stops watching: no node is started again from now on, and a start under way is given up (its
     * process ended) before this returns.
     */
    void stop() {
        stopping = true;
        watchers.forEach(Thread::interrupt);
        for (Thread watcher : watchers) {
            try {
                watcher.join(Duration.ofSeconds(60));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        stopped.countDown();
    }

    /** Waits until {@link #stop()}: the run command with one node and no proxy lives as long. */
    int awaitStop() throws InterruptedException {
        stopped.await();
        return 0;
    }
}
