package com.editlock.platform;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import java.util.logging.Logger;

/**
 * Tells the proxy at once that this node is stopping: from the moment the process is signalled
 * ({@code SIGTERM}, Ctrl-C) {@code /health/ready} says {@code DOWN} ({@link NodeDrain}), while
 * Payara Micro keeps serving for its shutdown grace ({@code --shutdowngrace}, which the run command
 * sets with the data grid on) before it undeploys. In that time the proxy's checks (every 500 ms,
 * two failures) take the node out and send its users, whose sessions live in the grid, to another
 * node; requests already under way finish. Without this, requests that reached the node in its
 * first second of stopping were answered {@code 503} by a container undeploying the application
 * (seen in {@code GridIT}: a page's heartbeat).
 *
 * <p>A JVM shutdown hook, since the JVM starts every hook at once: this one only raises a flag, and
 * Payara's own sleeps the grace before it stops anything.
 */
@WebListener
public class NodeStop implements ServletContextListener {

    private static final Logger LOG = Logger.getLogger(NodeStop.class.getName());

    private static volatile boolean stopping;

    /** Opens when the process is signalled. */
    private static final java.util.concurrent.CountDownLatch SIGNALLED =
            new java.util.concurrent.CountDownLatch(1);

    private Thread hook;

    /** Whether this node's process is stopping. */
    public static boolean stopping() {
        return stopping;
    }

    /** Waits until this node's process is signalled to stop. */
    public static void awaitSignal() throws InterruptedException {
        SIGNALLED.await();
    }

    /**
     * How long Payara Micro serves on after the signal before it undeploys ({@code
     * --shutdowngrace}); zero when none was set.
     */
    public static java.time.Duration shutdownGrace() {
        try {
            return java.time.Duration.ofMillis(
                    Long.parseLong(System.getProperty("fish.payara.shutdowngrace", "0").trim()));
        } catch (NumberFormatException e) {
            return java.time.Duration.ZERO;
        }
    }

    @Override
    public void contextInitialized(ServletContextEvent event) {
        hook =
                Thread.ofPlatform()
                        .name("editlock-stopping")
                        .unstarted(
                                () -> {
                                    stopping = true;
                                    SIGNALLED.countDown();
                                    LOG.info("Stopping: readiness DOWN for the proxy");
                                });
        Runtime.getRuntime().addShutdownHook(hook);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook); // an undeploy, not a stop
        } catch (IllegalStateException e) {
            // the JVM is stopping: the hook has run
        }
    }
}
