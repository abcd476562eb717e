package com.editlock.it.browser;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A page's live stream as the page's worker holds it ({@code GET /live?tabs=…}, {@code
 * text/event-stream}), read message by message on a thread of its own. A socket of its own (not
 * {@code java.net.http}, whose pool keeps a connection open after its body is closed), so that
 * {@link #close()} cuts the connection as a closing or crashing browser does. A stream has no
 * goodbye of its own: a polite leave is the page's {@code tab-left} beacon.
 */
public final class PageStream implements AutoCloseable {

    private final Socket socket;
    private final int status;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private final List<String> messages = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    private volatile boolean ended;

    private PageStream(Socket socket, BufferedReader in, Consumer<String> onMessage)
            throws IOException {
        this.socket = socket;
        String statusLine = in.readLine();
        if (statusLine == null) {
            throw new IOException("The server closed the stream before answering");
        }
        status = Integer.parseInt(statusLine.split(" ")[1]);
        for (String h = in.readLine(); h != null && !h.isEmpty(); h = in.readLine()) {
            int colon = h.indexOf(':');
            headers.put(
                    h.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    h.substring(colon + 1).trim());
        }
        // An answer ended on a kept-alive connection ends with its last chunk ("0"), which a
        // browser's EventSource takes as the stream's end, as it takes a closed connection.
        boolean chunked = "chunked".equalsIgnoreCase(headers.get("transfer-encoding"));
        // A virtual thread per stream: a load driver holding thousands of streams is not held back
        // by its own threads.
        Thread reader =
                Thread.ofVirtual()
                        .name("page-stream-reader")
                        .unstarted(
                                () -> {
                                    try {
                                        for (String line = in.readLine();
                                                line != null && !(chunked && line.equals("0"));
                                                line = in.readLine()) {
                                            if (line.startsWith("data: ")) {
                                                messages.add(line.substring(6));
                                                onMessage.accept(line.substring(6));
                                            }
                                        }
                                    } catch (IOException e) {
                                        // cut (by us), or the server went away
                                    }
                                    ended = true;
                                });
        reader.start();
    }

    /**
     * Opens {@code address} with the cookies {@code cookies} (a {@code Cookie} header's value: the
     * session's, and the proxy's node cookie behind one; may be null), waiting at most {@code
     * timeout} for the answer's head; the caller sees a refused stream by its status.
     */
    public static PageStream open(
            URI address, String cookies, Duration timeout, Consumer<String> onMessage)
            throws IOException {
        if (cookies != null && !cookies.contains("=")) { // a bare session id is no cookie at all
            throw new IllegalArgumentException(
                    "a Cookie header's value (name=value; …): " + cookies);
        }
        Socket socket = new Socket();
        try {
            socket.connect(
                    new InetSocketAddress(address.getHost(), address.getPort()),
                    (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(
                    ("GET "
                                    + address.getRawPath()
                                    + (address.getRawQuery() == null
                                            ? ""
                                            : "?" + address.getRawQuery())
                                    + " HTTP/1.1\r\nHost: "
                                    + address.getHost()
                                    + ":"
                                    + address.getPort()
                                    + "\r\nAccept: text/event-stream\r\n"
                                    + (cookies == null ? "" : "Cookie: " + cookies + "\r\n")
                                    + "\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in =
                    new BufferedReader(
                            new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            PageStream stream = new PageStream(socket, in, onMessage);
            socket.setSoTimeout(0); // the stream stays open; keep-alives come every second
            return stream;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    public int status() {
        return status;
    }

    /** The client's end of the connection: its port on this machine. */
    public int localPort() {
        return socket.getLocalPort();
    }

    /** An answer header, by its lower-case name. */
    public String header(String name) {
        return headers.getOrDefault(name, "");
    }

    /** The messages received so far ({@code data:} lines), oldest first. */
    public List<String> messages() {
        return List.copyOf(messages);
    }

    /** Whether the server ended the stream (or the connection broke) before {@link #close()}. */
    public boolean endedByServer() {
        return ended && !closed;
    }

    /** Cuts the connection. */
    @Override
    public void close() {
        closed = true;
        try {
            socket.close();
        } catch (IOException e) {
            // gone already
        }
    }

    /**
     * A stream of {@code tabs} opened with {@code cookie} from {@code from} (a loopback address;
     * null: any) and never read: a receive buffer of 4 KB, so its window closes as soon as a little
     * news arrives. {@code Connection: close}: once the server ends it, the connection goes too.
     */
    public static Socket openUnread(URI base, String cookie, List<String> tabs, String from)
            throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(4096);
        if (from != null) {
            socket.bind(new InetSocketAddress(java.net.InetAddress.getByName(from), 0));
        }
        socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 5000);
        socket.getOutputStream()
                .write(
                        ("GET "
                                        + base.getRawPath()
                                        + "live?tabs="
                                        + String.join(",", tabs)
                                        + " HTTP/1.1\r\nHost: "
                                        + base.getAuthority()
                                        + "\r\nAccept: text/event-stream\r\nConnection: close"
                                        + "\r\nCookie: "
                                        + cookie
                                        + "\r\n\r\n")
                                .getBytes(StandardCharsets.US_ASCII));
        return socket;
    }
}
