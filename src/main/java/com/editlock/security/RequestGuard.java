package com.editlock.security;

import com.editlock.errors.ErrorAnswers;
import com.editlock.platform.Settings;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UnsupportedEncodingException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.Set;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * The first filter every request passes (declared first in {@code web.xml}). It refuses, before any
 * application code runs and with a clear answer:
 *
 * <ul>
 *   <li>addresses not in canonical form — {@code ;} path parameters, {@code ..} or {@code //}
 *       segments, percent-encoded letters, digits, {@code /}, {@code \} or {@code %}, control
 *       characters — with {@code 400} (so no path trick can reach a page under another name than
 *       the one its security constraint names);
 *   <li>control characters in the query string ({@code 400});
 *   <li>cross-site state changes: a POST, PUT, DELETE or PATCH whose {@code Sec-Fetch-Site} is
 *       neither {@code same-origin} nor {@code none}, or whose {@code Origin} is not this server
 *       (or one of {@code locks.allowed.origins}) — {@code 403}; the same for opening the live
 *       stream ({@code GET /live}), which carries a session's news, and for an API state change
 *       with a form's content type that names neither (an old browser's cross-site form);
 *   <li>API state changes whose body is not {@code application/json} ({@code 415});
 *   <li>bodies larger than {@code locks.max.body.bytes} ({@code 413}), whether or not they announce
 *       their length; a page's form that does not announce it ({@code 411}); an API body of unknown
 *       length that cannot be read, broken or cut off ({@code 400}, one log line).
 * </ul>
 *
 * It adds the security headers to every answer: a Content-Security-Policy that allows only this
 * server's scripts and the page's own nonce'd ones (put on by {@code
 * com.editlock.container.CspRenderKitFactory}), {@code X-Content-Type-Options}, {@code
 * X-Frame-Options} and {@code frame-ancestors}, {@code Referrer-Policy}, and {@code Cache-Control:
 * no-store} on the API.
 */
public class RequestGuard extends HttpFilter {

    private static final long serialVersionUID = 1L;

    /** The request attribute that holds this request's CSP nonce. */
    public static final String NONCE = "editlock.cspNonce";

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");
    private static final Pattern BAD_ENCODING =
            Pattern.compile(
                    "%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[DEde]|5[Ff]|7[Ee]|2[Ff]|5[Cc]|25|[01][0-9A-Fa-f]|7[Ff]|3[Bb])");
    private static final Pattern RESOURCE_NAME =
            Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*");
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final long DRAIN_MAX = 16L * 1024 * 1024;
    private static final Logger LOG = Logger.getLogger(RequestGuard.class.getName());

    @Inject transient Settings settings;

    @Inject transient BodyReads bodies;

    @Override
    protected void doFilter(
            HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        boolean api = EditlockAuthentication.isApi(request);
        String nonce = nonce();
        request.setAttribute(NONCE, nonce);
        headers(request, response, api, nonce);

        String refusal = addressProblem(request);
        if (refusal != null) {
            ErrorAnswers.send(request, response, 400, refusal);
            return;
        }
        if (!resourceNamed(request)) {
            ErrorAnswers.send(request, response, 404, "There is no such resource.");
            return;
        }
        if (upgradesToCleartextHttp2WithBody(request)) {
            response.setHeader("Connection", "close");
            ErrorAnswers.send(
                    request,
                    response,
                    400,
                    "HTTP/2 over plain text (Upgrade: h2c) is not offered: send the request as"
                            + " HTTP/1.1 without that header, or over HTTPS.");
            return;
        }
        String method = request.getMethod().toUpperCase(Locale.ROOT);
        long limit = settings.maxBodyBytes();
        if (request.getContentLengthLong() > limit) {
            refuseBody(request, response, limit);
            return;
        }
        if (isLiveStream(request) && !sameOrigin(request)) {
            ErrorAnswers.send(
                    request,
                    response,
                    403,
                    "Refused: the live stream is opened only by Editlock's own pages.");
            return;
        }
        if (!SAFE_METHODS.contains(method)) {
            if (!sameOrigin(request) || (api && unnamedForm(request))) {
                ErrorAnswers.say(request, response, 403, "error.crossSite");
                return;
            }
            if (!api && request.getContentLengthLong() < 0 && mayHaveBody(request)) {
                // A page's form of unknown length (chunked): the container would parse up to its
                // own cap (2 MB) and Faces keep and echo it. Browsers always send a form's length.
                drain(request);
                response.setHeader("Connection", "close");
                ErrorAnswers.send(
                        request,
                        response,
                        411,
                        "Send the form with its length (Content-Length): a page takes no form"
                                + " in chunks.");
                return;
            }
            long length = request.getContentLengthLong();
            if (api && (length > 0 || (length < 0 && mayHaveBody(request)))) {
                // Read here, up to the limit (a body of unknown length, chunked or HTTP/2, too), so
                // no resource sees more; counted against its address while it arrives.
                String from = bodies.addressOf(request);
                if (!bodies.enter(from)) {
                    BodyReads.refuse(request, response);
                    return;
                }
                byte[] body;
                try {
                    body = readAtMost(request.getInputStream(), limit);
                } catch (IOException e) {
                    unreadable(request, response, e);
                    return;
                } finally {
                    bodies.leave(from);
                }
                if (body == null) {
                    refuseBody(request, response, limit);
                    return;
                }
                request = new BufferedBody(request, body);
            }
            if (api && request.getContentLengthLong() > 0 && !isJson(request)) {
                ErrorAnswers.send(request, response, 415, "Send the body as application/json.");
                return;
            }
        }
        chain.doFilter(request, response);
    }

    /**
     * 413. A client sends its whole body before it reads the answer, so a body of up to {@value
     * #DRAIN_MAX} bytes is read and thrown away first; a larger one gets the answer with its
     * connection closed.
     */
    private static void refuseBody(
            HttpServletRequest request, HttpServletResponse response, long limit)
            throws IOException {
        drain(request);
        response.setHeader("Connection", "close");
        ErrorAnswers.say(request, response, 413, "error.tooLarge", limit);
    }

    /**
     * Reads and throws away a body of up to {@value #DRAIN_MAX} bytes, so that its client, which
     * sends all of it before reading, gets the answer. A body that breaks off or is malformed ends
     * the draining: the refusal goes out all the same, with the connection closed.
     */
    private static void drain(HttpServletRequest request) throws IOException {
        if (request.getContentLengthLong() <= DRAIN_MAX) {
            InputStream in = request.getInputStream();
            byte[] buffer = new byte[8192];
            long drained = 0;
            try {
                for (int n; drained <= DRAIN_MAX && (n = in.read(buffer)) >= 0; ) {
                    drained += n;
                }
            } catch (IOException e) {
                LOG.fine(() -> "Stopped draining a refused body: " + e);
            }
        }
    }

    /**
     * A body of unknown length that could not be read — its chunked encoding broken, or it stopped
     * arriving until the request's time-out: {@code 400} with the connection closed, and one log
     * line (no stack trace: it is the client's fault, and a script sending many must not flood the
     * log with them). Nothing behind the guard has run.
     */
    private static void unreadable(
            HttpServletRequest request, HttpServletResponse response, IOException e) {
        LOG.info(
                () ->
                        "Refused "
                                + request.getMethod()
                                + " "
                                + request.getRequestURI()
                                + ": its body could not be read ("
                                + e.getClass().getSimpleName()
                                + (e.getMessage() == null ? "" : ": " + e.getMessage())
                                + ")");
        try {
            response.setHeader("Connection", "close");
            ErrorAnswers.send(
                    request,
                    response,
                    400,
                    "The body could not be read: its chunked encoding was broken, or it stopped"
                            + " arriving. Nothing was done.");
        } catch (IOException | IllegalStateException gone) {
            // the client is gone too: the line above says all there is
        }
    }

    private void headers(
            HttpServletRequest request, HttpServletResponse response, boolean api, String nonce) {
        baselineHeaders(request, response);
        response.setHeader(
                "Content-Security-Policy",
                "default-src 'self'; script-src 'self' 'nonce-"
                        + nonce
                        + "'; style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; "
                        + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
        if (api) {
            response.setHeader("Cache-Control", "no-store");
        }
    }

    /**
     * The headers of every answer, also of those made before this filter runs (the login redirect
     * and the API's {@code 401}, made by the authentication mechanism): a policy that allows
     * nothing, which this filter widens to the page's own for the answers it lets through.
     */
    static void baselineHeaders(HttpServletRequest request, HttpServletResponse response) {
        response.setHeader(
                "Content-Security-Policy",
                "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "same-origin");
        response.setHeader("Cross-Origin-Opener-Policy", "same-origin");
        response.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
        if (request.isSecure()) {
            response.setHeader("Strict-Transport-Security", "max-age=31536000");
        }
    }

    /** Why the request's address is refused, or null when it is in canonical form. */
    static String addressProblem(HttpServletRequest request) {
        String uri = request.getRequestURI();
        if (uri.indexOf(';') >= 0
                || uri.contains("/../")
                || uri.endsWith("/..")
                || uri.contains("/./")
                || uri.contains("//")
                || BAD_ENCODING.matcher(uri).find()
                || hasControl(uri)) {
            return "The address is not in canonical form (no ';' parameters, '..' or '//' segments, encoded letters "
                    + "or slashes, or control characters): use the plain address.";
        }
        String query = request.getQueryString();
        if (query != null) {
            String decoded;
            try {
                decoded = URLDecoder.decode(query, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return "The query string is not correctly percent-encoded.";
            }
            if (hasControl(decoded)) {
                return "The query string contains a control character; remove it.";
            }
        }
        return null;
    }

    /**
     * A request for a Faces resource names one: {@code /jakarta.faces.resource/.xhtml} (no name) or
     * a name with a hidden segment throws inside Mojarra's resource handler.
     */
    static boolean resourceNamed(HttpServletRequest request) {
        String prefix = request.getContextPath() + "/jakarta.faces.resource/";
        String uri = request.getRequestURI();
        if (!uri.startsWith(prefix)) {
            return true;
        }
        String name = uri.substring(prefix.length());
        if (name.endsWith(".xhtml")) {
            name = name.substring(0, name.length() - ".xhtml".length());
        }
        return RESOURCE_NAME.matcher(name).matches();
    }

    private static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return true;
            }
        }
        return false;
    }

    private static boolean isLiveStream(HttpServletRequest request) {
        return request.getRequestURI().equals(request.getContextPath() + "/live");
    }

    private boolean sameOrigin(HttpServletRequest request) {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null && !site.equals("same-origin") && !site.equals("none")) {
            return false;
        }
        String origin = request.getHeader("Origin");
        if (origin == null) {
            return true; // not a browser, or a same-origin GET-like navigation of an old browser
        }
        if (settings.allowedOrigins().contains(origin.toLowerCase(Locale.ROOT))) {
            return true;
        }
        String host = request.getHeader("Host");
        try {
            URI o = URI.create(origin);
            if (o.getHost() == null || host == null) {
                return false;
            }
            String authority = o.getPort() < 0 ? o.getHost() : o.getHost() + ":" + o.getPort();
            String defaultPortless = authority.replaceFirst(":(80|443)$", "");
            String hostPortless = host.toLowerCase(Locale.ROOT).replaceFirst(":(80|443)$", "");
            return defaultPortless.toLowerCase(Locale.ROOT).equals(hostPortless);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * A body-less API state change with a form's content type ({@code
     * application/x-www-form-urlencoded}, {@code multipart/form-data}, {@code text/plain}) that
     * names neither its origin nor its site: what an HTML form on another site sends from an old
     * browser. A script (Basic, a token, a cookie jar) sends JSON or no type; Editlock's own pages
     * always name theirs.
     */
    private static boolean unnamedForm(HttpServletRequest request) {
        if (request.getHeader("Origin") != null
                || request.getHeader("Sec-Fetch-Site") != null
                || request.getContentLengthLong() > 0
                || mayHaveBody(request)) { // a body that is not JSON is refused anyway (415)
            return false;
        }
        String type = request.getContentType();
        if (type == null) {
            return false;
        }
        String media = type.toLowerCase(Locale.ROOT).split(";", 2)[0].strip();
        return media.equals("application/x-www-form-urlencoded")
                || media.equals("multipart/form-data")
                || media.equals("text/plain");
    }

    private static boolean isJson(HttpServletRequest request) {
        String type = request.getContentType();
        return type != null
                && type.toLowerCase(Locale.ROOT).replace(" ", "").startsWith("application/json");
    }

    /**
     * The plain listener speaks no HTTP/2 ({@code http2-enabled=false}), so a request asking for
     * {@code Upgrade: h2c} is served as HTTP/1.1; but the container keeps the body of such a
     * request for the protocol it will not switch to, and a resource reading it would wait until
     * the request timeout (30 s, then a 500). One with a body is refused at once instead.
     */
    private static boolean upgradesToCleartextHttp2WithBody(HttpServletRequest request) {
        String upgrade = request.getHeader("Upgrade");
        return upgrade != null
                && upgrade.toLowerCase(Locale.ROOT).contains("h2c")
                && (request.getContentLengthLong() > 0
                        || request.getHeader("Transfer-Encoding") != null);
    }

    /** Chunked HTTP/1.1, or HTTP/2 without a length (HTTP/1.1 without either has no body). */
    private static boolean mayHaveBody(HttpServletRequest request) {
        return request.getHeader("Transfer-Encoding") != null
                || !request.getProtocol().startsWith("HTTP/1");
    }

    private static String nonce() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** The whole stream, or null when it is longer than {@code limit}. */
    static byte[] readAtMost(InputStream in, long limit) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        long total = 0;
        for (int n; (n = in.read(buffer)) >= 0; ) {
            total += n;
            if (total > limit) {
                return null;
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    /** A request whose body was read (and bounded) by the guard. */
    private static final class BufferedBody extends HttpServletRequestWrapper {
        private final byte[] body;

        BufferedBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException(
                            "The body was already read by the request guard.");
                }
            };
        }

        @Override
        public java.io.BufferedReader getReader() throws UnsupportedEncodingException {
            String encoding = getCharacterEncoding() == null ? "UTF-8" : getCharacterEncoding();
            return new java.io.BufferedReader(
                    new java.io.InputStreamReader(
                            getInputStream(), java.nio.charset.Charset.forName(encoding)));
        }
    }
}
