package com.editlock.it.node;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 request over a socket bound to a chosen loopback address (127.0.0.2, 127.0.0.3 …),
 * so that the server sees different client addresses; Java 17's HttpClient cannot choose its local
 * address. Each request has its own connection ({@code Connection: close}).
 */
public final class LoopbackHttp {

    /** An answer: status, header lines (lower-case names) and body. */
    public record Answer(int status, List<String> headers, String body) {
        public boolean hasHeader(String name) {
            String prefix = name.toLowerCase(Locale.ROOT) + ":";
            return headers.stream().anyMatch(h -> h.toLowerCase(Locale.ROOT).startsWith(prefix));
        }
    }

    private LoopbackHttp() {}

    public static Answer send(
            String from,
            URI base,
            String method,
            String path,
            Map<String, String> headers,
            byte[] body)
            throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 5_000);
            socket.setSoTimeout(30_000);
            StringBuilder head = new StringBuilder();
            head.append(method)
                    .append(' ')
                    .append(base.getPath())
                    .append(path)
                    .append(" HTTP/1.1\r\n");
            head.append("Host: ")
                    .append(base.getHost())
                    .append(':')
                    .append(base.getPort())
                    .append("\r\n");
            head.append("Connection: close\r\n");
            headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            if (body != null) {
                head.append("Content-Length: ").append(body.length).append("\r\n");
            }
            head.append("\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                out.write(body);
            }
            out.flush();
            return read(socket.getInputStream());
        }
    }

    private static Answer read(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        String text = all.toString(StandardCharsets.UTF_8);
        int end = text.indexOf("\r\n\r\n");
        String[] lines = (end < 0 ? text : text.substring(0, end)).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        List<String> headers = new ArrayList<>(List.of(lines).subList(1, lines.length));
        String body = end < 0 ? "" : text.substring(end + 4);
        return new Answer(status, headers, body);
    }
}
