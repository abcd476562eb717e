package com.editlock.platform;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps one connection's request and response objects from ever reaching the next connection that reuses them.
 *
 * <p>Payara's web container (Catalina on Grizzly) pools the objects behind each request and response and hands them to
 * the next connection once the current one is recycled. Anything that still holds the old stream then reads the next
 * request's body or writes into the next answer. The WebSocket runtime (Tyrus) does exactly that: its writer writes
 * to the stream it took at the upgrade, under its own monitor, while the socket's close runs beside it and recycles
 * the connection. Under tabs closing while pushes flow, a push frame landed in another client's API answer, a request
 * body vanished, an error page went to the wrong client (reproduced with {@code mvn -Preliability
 * -Dreliability.churnOnly=true}: about one answer in 2,500 corrupted).
 *
 * <p>Catalina can discard the stream and facade objects at recycle instead of reusing them ("enforce scope", what
 * Tomcat calls recycling facades): a stale reference then fails with {@link IllegalStateException} — a push to a
 * closed tab is dropped, which is harmless, since pushes only say "look again" — and cannot write into another
 * request's answer or read its body.
 * Payara has the switch but nothing that turns it on, so this listener does at deployment. It is static in the
 * container, so it holds for the whole server, which runs this application alone. On a container without it a
 * warning is logged and nothing else changes.
 *
 * <p>What it cannot do: keep a WebSocket's close from finishing another request that is still being served — the
 * container's close of an upgraded connection does that when it runs on a thread serving a request, or after the
 * connection's objects were recycled. {@link SocketCloseOrder} keeps those closes apart.
 */
@WebListener
public class ConnectionScope implements ServletContextListener {

    private static final Logger LOG = Logger.getLogger(ConnectionScope.class.getName());
    private static final String[] SCOPED = {"org.apache.catalina.connector.Request",
        "org.apache.catalina.connector.Response"};

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ClassLoader container = event.getServletContext().getClass().getClassLoader();
        for (String name : SCOPED) {
            try {
                Class.forName(name, true, container).getMethod("setEnforceScope", boolean.class).invoke(null, true);
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                LOG.log(Level.WARNING, "Could not make the container discard " + name + " objects at recycle; a "
                        + "closing WebSocket may write into another request's answer.", e);
                return;
            }
        }
        LOG.info("Request and response objects are discarded at recycle: a closed connection's stream cannot reach "
                + "another request.");
    }
}
