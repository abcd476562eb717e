package com.editlock.it.node;

import java.io.IOException;
import java.net.CookieHandler;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * Cookies sent as browsers send them: {@code name=value; name=value}. Java's {@link CookieManager}
 * takes a cookie whose value has a colon (Payara's {@code JSESSIONIDVERSION=2f:0}, set when the
 * sessions live in the data grid) for an RFC 2965 cookie and sends it back quoted, with {@code
 * $Version}, {@code $Path} and {@code $Domain}; Payara cannot read that and fails the request
 * inside the container. No browser sends that form, so the test clients do not either.
 */
public final class BrowserCookies extends CookieHandler {

    private final CookieManager store;

    public BrowserCookies(CookieManager store) {
        this.store = store;
    }

    @Override
    public Map<String, List<String>> get(URI uri, Map<String, List<String>> requestHeaders)
            throws IOException {
        // The manager decides which cookies go (domain, path, secure); only their form changes.
        List<String> chosen = store.get(uri, requestHeaders).getOrDefault("Cookie", List.of());
        List<String> plain =
                store.getCookieStore().get(uri).stream()
                        .filter(c -> chosen.stream().anyMatch(h -> h.contains(c.getName() + "=")))
                        .map(BrowserCookies::plain)
                        .toList();
        return plain.isEmpty() ? Map.of() : Map.of("Cookie", List.of(String.join("; ", plain)));
    }

    @Override
    public void put(URI uri, Map<String, List<String>> responseHeaders) throws IOException {
        store.put(uri, responseHeaders);
    }

    private static String plain(HttpCookie c) {
        String value = c.getValue();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        return c.getName() + "=" + value;
    }
}
