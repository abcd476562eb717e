package com.editlock.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.faces.event.WebsocketEvent;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.WebConnection;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the closing of a page's WebSocket from finishing another user's request.
 *
 * <p>When the server closes a page's WebSocket — the page navigated away (Faces then drops the view and closes its
 * socket), the session ended — Payara's web container ends the close by "resuming" the upgraded
 * request, and it runs that request's completion on the calling thread. That thread is often serving another
 * request (the Done or Save that navigated away, a logout): the completion recycles the pooled request objects under
 * it, and that request fails inside the container, answers empty or is closed half written. When the client cut the
 * connection instead, the container recycles the upgraded request at once and closes the socket later, by which time
 * those objects may serve another request — which the late close then finishes. Both were seen under the reliability
 * torture on nodes that serve screen users: empty answers, generic errors, "connection is null" in the server log.
 *
 * <p>This class changes two things, and only for WebSocket connections:
 * <ul>
 * <li>the close of the upgraded connection runs on a thread of its own ({@value #THREAD}), never on a thread that
 *     serves a request;</li>
 * <li>it runs only while the request still belongs to that connection (still upgraded, still this connection's);
 *     once the container has recycled it, there is nothing left to finish and nothing is touched.</li>
 * </ul>
 * The filter notes each handshake's request; when the page's socket opens (on the same thread, right after the
 * handshake), {@link Adoption} wraps the connection the WebSocket runtime (Tyrus) will close. There is no API for
 * either, so both are reached by reflection; where that fails (another container), a warning is logged once and the
 * socket is left as the container made it.
 *
 * <p>What it cannot do: rarer failures of the same kind remain (requests that start on pooled objects still in use
 * elsewhere); the reliability runs count them from the node logs (README, "Not fixed (container)").
 */
public class SocketCloseOrder implements Filter {

    static final String THREAD = "editlock-socket-close";
    private static final Logger LOG = Logger.getLogger(SocketCloseOrder.class.getName());
    private static final ThreadLocal<Socket> HANDSHAKE = new ThreadLocal<>();
    private static final AtomicBoolean UNAVAILABLE = new AtomicBoolean();
    private static final AtomicBoolean ANNOUNCED = new AtomicBoolean();
    private static volatile ExecutorService closer;
    private static volatile ClassLoader application;
    private static volatile Container container;

    @Override
    public void init(FilterConfig config) {
        application = config.getServletContext().getClassLoader();
        closer = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, THREAD);
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void destroy() {
        ExecutorService running = closer;
        if (running != null) {
            running.shutdown();
            try {
                running.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HANDSHAKE.remove();
        Socket socket = null;
        if (request instanceof HttpServletRequest http && "websocket".equalsIgnoreCase(http.getHeader("Upgrade"))
                && !UNAVAILABLE.get()) {
            try {
                Container found = container(request);
                socket = new Socket(found, found.catalinaRequest.invoke(unwrap(request)));
                HANDSHAKE.set(socket);
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                unavailable(e);
            }
        }
        try {
            chain.doFilter(request, response);
        } finally {
            // Kept after an upgrade: the container opens the socket after the filters, on this thread.
            if (socket != null && !socket.upgraded()) {
                HANDSHAKE.remove();
            }
        }
    }

    /** Observes each page's socket opening: that is the moment the connection to wrap exists. */
    @ApplicationScoped
    public static class Adoption {
        void opened(@Observes @WebsocketEvent.Opened WebsocketEvent event) {
            Socket socket = HANDSHAKE.get();
            HANDSHAKE.remove();
            if (socket == null || UNAVAILABLE.get()) {
                return;
            }
            try {
                socket.adopt();
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                unavailable(e);
            }
        }
    }

    private static Container container(ServletRequest request) throws ReflectiveOperationException {
        Container found = container;
        if (found == null) {
            found = new Container(unwrap(request).getClass().getClassLoader());
            container = found;
        }
        return found;
    }

    private static ServletRequest unwrap(ServletRequest request) {
        ServletRequest inner = request;
        while (inner instanceof ServletRequestWrapper wrapper) {
            inner = wrapper.getRequest();
        }
        return inner;
    }

    private static void unavailable(Throwable e) {
        if (UNAVAILABLE.compareAndSet(false, true)) {
            LOG.log(Level.WARNING, "Cannot move WebSocket closes off request threads on this container; closing a "
                    + "page's socket may disturb another request.", e);
        }
    }

    /** The container's members this class needs, looked up once. */
    private static final class Container {
        final Method catalinaRequest;
        final Method isUpgrade;
        final Method webConnection;
        final Method upgradeHandler;

        Container(ClassLoader loader) throws ReflectiveOperationException {
            catalinaRequest = Class.forName("org.apache.catalina.connector.RequestFacade", false, loader)
                    .getMethod("getUnwrappedCoyoteRequest");
            Class<?> catalina = Class.forName("org.apache.catalina.connector.Request", false, loader);
            isUpgrade = catalina.getMethod("isUpgrade");
            webConnection = catalina.getMethod("getWebConnection");
            upgradeHandler = catalina.getMethod("getHttpUpgradeHandler");
        }

        private static Field field(Class<?> type, String name) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                try {
                    Field found = c.getDeclaredField(name);
                    found.setAccessible(true);
                    return found;
                } catch (NoSuchFieldException e) {
                    // look in the superclass
                }
            }
            return null;
        }
    }

    /**
     * One page's socket: its upgraded request and, once open, the container's connection, closed at most once and
     * only while the request is still this socket's (still upgraded, still with this connection).
     */
    private static final class Socket {
        private final Container container;
        private final Object request;
        private WebConnection connection;
        private boolean closed;

        Socket(Container container, Object request) {
            this.container = container;
            this.request = request;
        }

        boolean upgraded() {
            try {
                return (Boolean) container.isUpgrade.invoke(request);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return false;
            }
        }

        /** Wraps the connection the socket's handler will close, if it is still the one of this handshake. */
        void adopt() throws ReflectiveOperationException {
            if (!(Boolean) container.isUpgrade.invoke(request)
                    || !(container.webConnection.invoke(request) instanceof WebConnection opened)) {
                return;
            }
            Object handler = container.upgradeHandler.invoke(request);
            Field inner = Container.field(handler.getClass(), "handler"); // Tyrus may hand the container a proxy
            if (inner != null && inner.get(handler) != null) {
                handler = inner.get(handler);
            }
            Field wc = Container.field(handler.getClass(), "wc");
            if (wc == null) {
                throw new NoSuchFieldException(handler.getClass().getName() + ".wc");
            }
            synchronized (this) {
                connection = opened;
            }
            if (wc.get(handler) == opened) {
                wc.set(handler, new OrderedClose(opened, this));
                if (ANNOUNCED.compareAndSet(false, true)) {
                    LOG.info("WebSocket connections are closed off request threads, and only while their request "
                            + "is still theirs.");
                }
            }
        }

        /** The WebSocket runtime closes the socket: done on {@value #THREAD}, never on the calling thread. */
        void closeRequested() {
            ExecutorService running = closer;
            if (running == null || running.isShutdown()) {
                finish();
                return;
            }
            try {
                running.execute(this::finish);
            } catch (RejectedExecutionException stopping) {
                finish();
            }
        }

        private synchronized void finish() {
            if (closed || connection == null) {
                return;
            }
            closed = true;
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(application);
            try {
                if ((Boolean) container.isUpgrade.invoke(request)
                        && container.webConnection.invoke(request) == connection) {
                    connection.close();
                }
            } catch (Exception e) {
                LOG.log(Level.FINE, "A WebSocket connection could not be closed", e);
            } finally {
                thread.setContextClassLoader(previous);
            }
        }
    }

    /** The container's connection as the WebSocket runtime sees it: its close goes through the {@link Socket}. */
    private static final class OrderedClose implements WebConnection {
        private final WebConnection connection;
        private final Socket socket;

        OrderedClose(WebConnection connection, Socket socket) {
            this.connection = connection;
            this.socket = socket;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            return connection.getInputStream();
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            return connection.getOutputStream();
        }

        @Override
        public void close() {
            socket.closeRequested();
        }
    }
}
