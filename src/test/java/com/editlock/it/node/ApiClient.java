package com.editlock.it.node;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * One API session on one node, for the reliability runs: it never throws on a failed request (a
 * node being killed, a database being down) but answers status -1 with the reason, and it bounds
 * every request in time.
 */
public final class ApiClient {

    /**
     * An answer: the status (-1 when there was none), its body or the failure, and Retry-After if
     * any.
     */
    public record Answer(int status, String body, String retryAfter, long micros) {
        public boolean ok() {
            return status >= 200 && status < 300;
        }

        public JsonObject json() {
            return Json.createReader(new StringReader(body)).readObject();
        }
    }

    private final URI base;
    private final CookieManager cookies = new CookieManager();
    private final HttpClient http;
    private final Duration timeout;
    private String basic;

    public ApiClient(URI base, Duration timeout) {
        this(base, timeout, null);
    }

    /**
     * A client whose connections come from {@code from} (a loopback address such as 127.0.0.2: a
     * machine of its own, as the server sees it), or from the system's choice when null.
     */
    public ApiClient(URI base, Duration timeout, java.net.InetAddress from) {
        this.base = base;
        this.timeout = timeout;
        HttpClient.Builder b =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .cookieHandler(new com.editlock.it.node.BrowserCookies(cookies))
                        .connectTimeout(timeout);
        if (from != null) {
            b.localAddress(from);
        }
        this.http = b.build();
    }

    /** The cookies this client sends, as a {@code Cookie} header's value. */
    public String cookieHeader() {
        return String.join(
                "; ",
                cookies.getCookieStore().getCookies().stream()
                        .map(c -> c.getName() + "=" + c.getValue())
                        .toList());
    }

    /** Sends {@code cookie} with every request (the proxy's node cookie, say). */
    public ApiClient cookie(java.net.HttpCookie cookie) {
        cookies.getCookieStore().add(base, cookie);
        return this;
    }

    /**
     * Logs in with HTTP Basic: the first request opens the session, whose cookie every later one
     * sends.
     */
    public Answer login(String user, String password) {
        basic =
                "Basic "
                        + Base64.getEncoder()
                                .encodeToString(
                                        (user + ":" + password).getBytes(StandardCharsets.UTF_8));
        Answer a = send("GET", "api/locks?limit=1", null);
        basic = null;
        return a;
    }

    public Answer acquire(String resource, String mode) {
        return send(
                "POST",
                "api/locks",
                "{\"resource\":\"" + resource + "\",\"mode\":\"" + mode + "\"}");
    }

    public Answer release(String resource) {
        return send("DELETE", "api/locks/" + resource, null);
    }

    public Answer heartbeat() {
        return send("POST", "api/locks/heartbeat", null);
    }

    public Answer logout() {
        return send("POST", "api/logout", null);
    }

    public Answer send(String method, String path, String json) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout);
        if (basic != null) {
            b.header("Authorization", basic);
        }
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        b.method(
                method,
                json == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json));
        long start = System.nanoTime();
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(
                    r.statusCode(),
                    r.body(),
                    r.headers().firstValue("Retry-After").orElse(null),
                    (System.nanoTime() - start) / 1000);
        } catch (IOException e) {
            return new Answer(-1, e.toString(), null, (System.nanoTime() - start) / 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(-1, "interrupted", null, (System.nanoTime() - start) / 1000);
        }
    }
}
