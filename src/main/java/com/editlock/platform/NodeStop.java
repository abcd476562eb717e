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

    private Thread hook;

    /** Whether this node's process is stopping. */
    public static boolean stopping() {
        return stopping;
    }

    @Override
    public void contextInitialized(ServletContextEvent event) {
        hook =
                Thread.ofPlatform()
                        .name("editlock-stopping")
                        .unstarted(
                                () -> {
                                    stopping = true;
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
