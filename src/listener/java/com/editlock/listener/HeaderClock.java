package com.editlock.listener;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.Grizzly;
import org.glassfish.grizzly.attributes.Attribute;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.ssl.SSLUtils;

/**
 * Times how long a connection's bytes go without the HTTP codec making anything of them. It sits
 * before the codec: the first bytes that arrive while nothing is pending start the clock; {@link
 * CleartextGuard}, after the codec, stops it whenever the codec hands on a request's header or any
 * of its body. A connection whose clock runs past the limit (a header sent a byte at a time, a
 * half-sent request left hanging) is closed. Idle keep-alive connections send nothing and are left
 * to the listener's idle timer; a connection that switched protocols (a WebSocket) and one over TLS
 * (whose handshake has its own timeout, and whose HTTP/2 frames the HTTP/1.1 codec never sees) are
 * not timed.
 *
 * <p>The limit is the system property {@code editlock.listener.headerTimeoutSeconds} (20 by
 * default, the first header limit of Apache httpd's {@code mod_reqtimeout}).
 */
final class HeaderClock extends BaseFilter {

    private static final Logger LOG = Logger.getLogger(HeaderClock.class.getName());
    private static final Attribute<Boolean> UNTIMED =
            Grizzly.DEFAULT_ATTRIBUTE_BUILDER.createAttribute("editlock.headerClock.untimed");

    /** One sweeper for every listener of the JVM: a daemon, twice a second. */
    private static final ScheduledExecutorService SWEEPER =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "editlock-header-clock");
                        t.setDaemon(true);
                        return t;
                    });

    private final long limitNanos;
    private final Map<Connection<?>, Long> started = new ConcurrentHashMap<>();

    HeaderClock(int limitSeconds) {
        this.limitNanos = TimeUnit.SECONDS.toNanos(limitSeconds);
        SWEEPER.scheduleWithFixedDelay(this::sweep, 500, 500, TimeUnit.MILLISECONDS);
    }

    static int limitSeconds() {
        String set = System.getProperty("editlock.listener.headerTimeoutSeconds", "20");
        try {
            int seconds = Integer.parseInt(set.trim());
            if (seconds > 0) {
                return seconds;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(
                "editlock.listener.headerTimeoutSeconds must be a whole number of seconds above"
                        + " 0, not \""
                        + set
                        + "\"");
    }

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        Connection<?> connection = ctx.getConnection();
        if (!UNTIMED.isSet(connection)) {
            if (SSLUtils.getSSLEngine(connection) != null) {
                UNTIMED.set(connection, Boolean.TRUE);
            } else {
                started.putIfAbsent(connection, System.nanoTime());
            }
        }
        return ctx.getInvokeAction();
    }

    @Override
    public NextAction handleClose(FilterChainContext ctx) throws IOException {
        started.remove(ctx.getConnection());
        return ctx.getInvokeAction();
    }

    /** The codec made a header or body of what arrived: the clock stops until more bytes come. */
    void progress(Connection<?> connection) {
        started.remove(connection);
    }

    /** The connection switched protocols: its bytes are no longer HTTP/1.1 requests. */
    void untime(Connection<?> connection) {
        UNTIMED.set(connection, Boolean.TRUE);
        started.remove(connection);
    }

    private void sweep() {
        long now = System.nanoTime();
        started.forEach(
                (connection, since) -> {
                    if (now - since > limitNanos && started.remove(connection, since)) {
                        LOG.log(
                                Level.FINE,
                                "Closed a connection whose request header did not arrive in time: {0}",
                                connection.getPeerAddress());
                        connection.closeSilently();
                    }
                });
    }
}
