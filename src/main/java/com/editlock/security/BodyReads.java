package com.editlock.security;

import com.editlock.errors.ErrorAnswers;
import com.editlock.platform.Settings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Request bodies being read right now, by client address: a body is read while its request holds
 * one of the node's workers, so a client that sends its body slowly (or never finishes it) holds a
 * worker until the request's time-out. At most {@link #MAX_PER_ADDRESS} bodies from one address are
 * read at once; one more is answered {@code 429} at once, its body unread and its connection
 * closed, so one address cannot take the node's workers (200) with slow bodies, with or without a
 * login.
 *
 * <p>Where bodies are read: a page's form ({@code application/x-www-form-urlencoded} with a length
 * up to {@code locks.max.body.bytes}) by the authentication mechanism before anything else looks at
 * it ({@link #readForm}); an API body by the request guard, into memory ({@link RequestGuard}).
 * Behind the proxy, a body reaches a node only once it has arrived (up to 16 KB, within 10 s:
 * {@code server-config/haproxy.cfg}), and the address counted is the client's, not the proxy's;
 * many addresses that send slowly at once are the proxy's to stop (docs/security.md).
 */
@ApplicationScoped
public class BodyReads {

    /**
     * Bodies read at once from one address: far more than one browser or an office behind one
     * address sends at the same moment (a form's body arrives in milliseconds).
     */
    public static final int MAX_PER_ADDRESS = 16;

    /**
     * The longest field (name or value, in characters) a page's form may carry: twice the longest
     * field any page takes, a configurator's description of 2,000 characters, whose line breaks a
     * browser sends as two. A longer one is refused before Faces sees it, so no failed postback
     * keeps it in a page's state.
     */
    public static final int PAGE_FIELD_MAX_CHARS = 4000;

    private final Map<String, Integer> reading = new ConcurrentHashMap<>();

    @Inject Settings settings;

    /** Counts a body from {@code address} as being read; false when it has its bound already. */
    boolean enter(String address) {
        boolean[] admitted = {false};
        reading.compute(
                address,
                (a, n) -> {
                    int now = n == null ? 0 : n;
                    if (now >= MAX_PER_ADDRESS) {
                        return n;
                    }
                    admitted[0] = true;
                    return now + 1;
                });
        return admitted[0];
    }

    /** A body from {@code address} has been read (or given up). */
    void leave(String address) {
        reading.computeIfPresent(address, (a, n) -> n <= 1 ? null : n - 1);
    }

    /** How many bodies from {@code address} are being read (for tests). */
    int reading(String address) {
        return reading.getOrDefault(address, 0);
    }

    /** The request's client address, as the node believes it. */
    String addressOf(HttpServletRequest request) {
        return ClientAddress.of(request, settings.trustedProxies());
    }

    /**
     * Reads a page's form body now, counted against its address: true when it was read (or there is
     * none to read here); false when the request was answered: {@code 429} when the address has
     * {@link #MAX_PER_ADDRESS} bodies under way, {@code 400} when a field is longer than {@link
     * #PAGE_FIELD_MAX_CHARS}.
     */
    boolean readForm(HttpServletRequest request, HttpServletResponse response) {
        long length = request.getContentLengthLong();
        String type = request.getContentType();
        if (length <= 0
                || length > settings.maxBodyBytes()
                || type == null
                || !type.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
            return true; // nothing, a refusal by the request guard, or no form
        }
        String from = addressOf(request);
        if (!enter(from)) {
            refuse(request, response);
            return false;
        }
        Map<String, String[]> form;
        try {
            form = request.getParameterMap(); // the container reads and keeps the form now
        } finally {
            leave(from);
        }
        if (tooLong(form)) {
            try {
                ErrorAnswers.say(
                        request,
                        response,
                        HttpServletResponse.SC_BAD_REQUEST,
                        "error.fieldTooLong",
                        PAGE_FIELD_MAX_CHARS);
            } catch (IOException e) {
                // the client is gone: nothing to tell it
            }
            return false;
        }
        return true;
    }

    /** Whether a field's name or one of its values is longer than a page takes. */
    static boolean tooLong(Map<String, String[]> form) {
        for (Map.Entry<String, String[]> field : form.entrySet()) {
            if (field.getKey().length() > PAGE_FIELD_MAX_CHARS) {
                return true;
            }
            for (String value : field.getValue()) {
                if (value != null && value.length() > PAGE_FIELD_MAX_CHARS) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * {@code 429}: the address has its bound of bodies under way; the connection is closed. Plain
     * text, in English: choosing the reader's language would read the form's {@code lang} field,
     * which is the body this answer must not wait for.
     */
    static void refuse(HttpServletRequest request, HttpServletResponse response) {
        try {
            if (response.isCommitted()) {
                return;
            }
            response.resetBuffer();
            response.setStatus(429);
            response.setHeader("Connection", "close");
            response.setHeader("Retry-After", "5");
            response.setHeader("Cache-Control", "no-store");
            response.setContentType("text/plain;charset=UTF-8");
            response.getWriter()
                    .write(
                            "Too many requests from your address are still sending their bodies:"
                                    + " try again in a moment.\n");
            response.flushBuffer();
        } catch (IOException | IllegalStateException e) {
            // the client is gone: nothing to tell it
        }
    }
}
