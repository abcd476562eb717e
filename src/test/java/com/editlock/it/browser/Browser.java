package com.editlock.it.browser;

import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One user agent with its own cookie jar: one HTTP session, like one person's browser or script.
 */
public final class Browser {

    private static final Pattern LIVE =
            Pattern.compile(
                    "id=\"editlock-live\"[^>]*data-view=\"([0-9a-f-]{36})\"[^>]*data-stream=\"([^\"]+)\"");
    private static final Pattern VIEW_STATE =
            Pattern.compile("name=\"jakarta.faces.ViewState\"[^>]*value=\"([^\"]+)\"");

    private final URI base;
    private final CookieManager cookies = new CookieManager();
    private final HttpClient http;

    /** The same browser, but it stops at a redirect (answers {@code 3xx} as they come). */
    private final HttpClient stopAtRedirects;

    private boolean followRedirects = true;
    private String basic;
    private Duration timeout = Duration.ofSeconds(30);
    private String lastPage = "";
    private URI lastUri;

    public Browser(URI base) {
        this.base = base;
        this.http = client(HttpClient.Redirect.NORMAL);
        this.stopAtRedirects = client(HttpClient.Redirect.NEVER);
    }

    private HttpClient client(HttpClient.Redirect redirects) {
        return HttpClient.newBuilder()
                // The node speaks HTTP/1.1 only on plain text (no h2c upgrade).
                .version(HttpClient.Version.HTTP_1_1)
                .cookieHandler(new com.editlock.it.node.BrowserCookies(cookies))
                .followRedirects(redirects)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /**
     * Lets go of this browser's HTTP clients (their connections and threads); a load driver that
     * keeps thousands of sessions keeps their cookies, not their browsers.
     */
    public void close() {
        http.close();
        stopAtRedirects.close();
    }

    /**
     * Whether requests follow redirects (they do unless set): a test that stops at one can send the
     * next request elsewhere, as a proxy would after a node went away.
     */
    public Browser followRedirects(boolean follow) {
        followRedirects = follow;
        return this;
    }

    /** Sends {@code cookie} with every request (the proxy's node cookie, say). */
    public Browser cookie(HttpCookie cookie) {
        cookies.getCookieStore().add(base, cookie);
        return this;
    }

    /** Sends {@code Authorization: Bearer token} with every request (a script's API token). */
    public Browser bearer(String token) {
        basic = "Bearer " + token;
        return this;
    }

    /** How long each request may take (30 s unless set). */
    public Browser timeout(Duration timeout) {
        this.timeout = timeout;
        return this;
    }

    /** Sends HTTP Basic credentials with every request (an API client). */
    public Browser basic(String user, String password) {
        basic =
                "Basic "
                        + Base64.getEncoder()
                                .encodeToString(
                                        (user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return this;
    }

    public HttpResponse<String> get(String path) {
        HttpResponse<String> r = send(request(path).GET());
        lastPage = r.body();
        lastUri = r.uri();
        return r;
    }

    /**
     * A GET beside the current page (an API call of the same session), which stays the page to
     * submit from.
     */
    public HttpResponse<String> peek(String path) {
        return send(request(path).GET());
    }

    public HttpResponse<String> postJson(String path, String json) {
        return send(
                request(path)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** A form post of {@code fields} to {@code path} (or an absolute address: another site's). */
    public HttpResponse<String> postForm(String path, Map<String, String> fields) {
        String body =
                fields.entrySet().stream()
                        .map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                        .collect(Collectors.joining("&"));
        return send(
                request(path)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** Any method with a JSON body (PUT, PATCH …). */
    public HttpResponse<String> send(String method, String path, String json) {
        return send(
                request(path)
                        .header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofString(json)));
    }

    public HttpResponse<String> post(String path) {
        return send(request(path).POST(HttpRequest.BodyPublishers.noBody()));
    }

    public HttpResponse<String> delete(String path) {
        return send(request(path).DELETE());
    }

    /** Logs in through the login screen. */
    public HttpResponse<String> login(String user, String password) {
        get("login.xhtml");
        return submit(
                "login",
                Map.of("login:username", user, "login:password", password),
                "login:submit");
    }

    /**
     * Submits form {@code formId} of the last page, pressing {@code button}, with {@code fields}
     * changed.
     */
    public HttpResponse<String> submit(String formId, Map<String, String> fields, String button) {
        HttpResponse<String> r = post(formId, fields, button);
        lastPage = r.body();
        lastUri = r.uri();
        return r;
    }

    /**
     * Submits like {@link #submit} but keeps the last page as the one to submit from: a page posted
     * again and again, whatever the answers were.
     */
    public HttpResponse<String> submitKeepingPage(
            String formId, Map<String, String> fields, String button) {
        return post(formId, fields, button);
    }

    private HttpResponse<String> post(String formId, Map<String, String> fields, String button) {
        Map<String, String> form = new LinkedHashMap<>(inputsOf(formId));
        form.put("jakarta.faces.ViewState", viewState());
        form.putAll(fields); // may forge the view state
        form.put(formId, formId);
        form.put(button, "x");
        String body =
                form.entrySet().stream()
                        .map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                        .collect(Collectors.joining("&"));
        return send(
                HttpRequest.newBuilder(lastUri)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    public String page() {
        return lastPage;
    }

    /** The text of the element marked {@code data-testid="id"} on the last page, if present. */
    public Optional<String> testId(String id) {
        Matcher m =
                Pattern.compile(
                                "<(\\w+)[^>]*data-testid=\""
                                        + Pattern.quote(id)
                                        + "\"[^>]*>(.*?)</\\1>",
                                Pattern.DOTALL)
                        .matcher(lastPage);
        if (m.find()) {
            return Optional.of(m.group(2).replaceAll("<[^>]+>", "").replace("&mdash;", "—").trim());
        }
        return lastPage.contains("data-testid=\"" + id + "\"") ? Optional.of("") : Optional.empty();
    }

    /** The address of the last page's live stream, carrying its tab alone, if the page has one. */
    public Optional<URI> liveAddress() {
        Matcher m = LIVE.matcher(lastPage);
        return m.find()
                ? Optional.of(base.resolve(m.group(2) + "?tabs=" + m.group(1)))
                : Optional.empty();
    }

    /** The last page's tab token, if it is a live page. */
    public Optional<String> viewToken() {
        Matcher m = LIVE.matcher(lastPage);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** Opens the last page's live stream in this session, as the page's worker does. */
    public PageStream openStream(java.util.function.Consumer<String> onMessage) throws Exception {
        return PageStream.open(
                liveAddress().orElseThrow(() -> new AssertionError("The page has no live stream")),
                cookieHeader().orElse(null),
                Duration.ofSeconds(10),
                onMessage);
    }

    /** Every cookie this browser holds, as a {@code Cookie} header's value. */
    public Optional<String> cookieHeader() {
        var all = cookies.getCookieStore().getCookies();
        return all.isEmpty()
                ? Optional.empty()
                : Optional.of(
                        all.stream()
                                .map(c -> c.getName() + "=" + c.getValue())
                                .collect(java.util.stream.Collectors.joining("; ")));
    }

    public Optional<String> sessionId() {
        return cookies.getCookieStore().getCookies().stream()
                .filter(c -> c.getName().equals("JSESSIONID"))
                .map(HttpCookie::getValue)
                .findFirst();
    }

    private Map<String, String> inputsOf(String formId) {
        Map<String, String> inputs = new LinkedHashMap<>();
        Matcher m =
                Pattern.compile("<input[^>]*name=\"(" + Pattern.quote(formId) + ":[^\"]+)\"[^>]*>")
                        .matcher(lastPage);
        while (m.find()) {
            Matcher type = Pattern.compile("type=\"(\\w+)\"").matcher(m.group());
            Matcher value = Pattern.compile("value=\"([^\"]*)\"").matcher(m.group());
            if (type.find()
                    && (type.group(1).equals("submit") || type.group(1).equals("password"))) {
                continue;
            }
            inputs.put(m.group(1), value.find() ? unescape(value.group(1)) : "");
        }
        Matcher area =
                Pattern.compile(
                                "<textarea[^>]*name=\"("
                                        + Pattern.quote(formId)
                                        + ":[^\"]+)\"[^>]*>(.*?)</textarea>",
                                Pattern.DOTALL)
                        .matcher(lastPage);
        while (area.find()) {
            inputs.put(area.group(1), unescape(area.group(2)));
        }
        Matcher select =
                Pattern.compile(
                                "<select[^>]*name=\"("
                                        + Pattern.quote(formId)
                                        + ":[^\"]+)\"[^>]*>(.*?)</select>",
                                Pattern.DOTALL)
                        .matcher(lastPage);
        while (select.find()) {
            Matcher selected =
                    Pattern.compile("<option value=\"([^\"]*)\" selected").matcher(select.group(2));
            if (selected.find()) {
                inputs.put(select.group(1), selected.group(1));
            }
        }
        return inputs;
    }

    /** The last page's Faces view state (its form's {@code jakarta.faces.ViewState}). */
    public String viewState() {
        Matcher m = VIEW_STATE.matcher(lastPage);
        if (!m.find()) {
            throw new AssertionError("The last page has no Faces form:\n" + lastPage);
        }
        return m.group(1);
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout);
        if (basic != null) {
            b.header("Authorization", basic);
        }
        return b;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return (followRedirects ? http : stopAtRedirects)
                    .send(
                            request.build(),
                            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError("Request failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String unescape(String s) {
        return s.replace("&quot;", "\"")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&#39;", "'")
                .replace("&amp;", "&");
    }
}
