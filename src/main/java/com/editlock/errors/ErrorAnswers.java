package com.editlock.errors;

import com.editlock.platform.Languages;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.text.MessageFormat;
import java.util.Locale;
import java.util.Map;

/**
 * Editlock's own error answers: a JSON {@code {"error": "…"}} under {@code /api}, a plain page with
 * the same sentence anywhere else. Neither names the server product or its version, and neither
 * carries a stack trace.
 *
 * <p>A page speaks its reader's language ({@link Languages#of}: the language picked on any page,
 * else the browser's); its sentences come from the same bundle as every other page ({@code error.*}
 * keys). The API answers in English, its sentence beside the status code that machines read. A
 * sentence passed as text rather than as a key (a refusal only a script meets: a malformed address,
 * a bad live-stream request) is shown as it is.
 */
public final class ErrorAnswers {

    private ErrorAnswers() {}

    /** {@code message} as it is, under the status's heading. */
    public static void send(
            HttpServletRequest request, HttpServletResponse response, int status, String message)
            throws IOException {
        answer(request, response, status, null, null, message, Map.of());
    }

    /** The bundle's sentence {@code key} (with {@code args}), under the status's heading. */
    public static void say(
            HttpServletRequest request,
            HttpServletResponse response,
            int status,
            String key,
            Object... args)
            throws IOException {
        answer(request, response, status, null, key, null, Map.of(), args);
    }

    /**
     * The bundle's heading {@code titleKey} and sentence {@code key}, and on a page what the user
     * had typed ({@link TypedValues}), each in a read-only box to copy from, because the request
     * that carried it could not be processed.
     */
    public static void sayWithTyped(
            HttpServletRequest request,
            HttpServletResponse response,
            int status,
            String titleKey,
            String key,
            Map<String, String> typed)
            throws IOException {
        answer(request, response, status, titleKey, key, null, typed);
    }

    private static void answer(
            HttpServletRequest request,
            HttpServletResponse response,
            int status,
            String titleKey,
            String key,
            String text,
            Map<String, String> typed,
            Object... args)
            throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.resetBuffer();
        response.setStatus(status);
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-store");
        if (status == 503) {
            response.setHeader("Retry-After", "2");
        }
        PrintWriter out = response.getWriter();
        Object asked = request.getAttribute(jakarta.servlet.RequestDispatcher.ERROR_REQUEST_URI);
        String uri = asked instanceof String s ? s : request.getRequestURI();
        boolean api = uri.startsWith(request.getContextPath() + "/api/");
        Locale reader = api ? Locale.ENGLISH : Languages.pick(request, response);
        String message = key == null ? text : words(reader, key, args);
        if (api) {
            response.setContentType("application/json");
            out.write(errorJson(message));
        } else {
            response.setContentType("text/html");
            response.setHeader("Content-Language", reader.getLanguage());
            String title = words(reader, titleKey == null ? titleKey(status) : titleKey);
            out.write(
                    "<!DOCTYPE html><html lang=\""
                            + reader.getLanguage()
                            + "\"><head><meta charset=\"UTF-8\"><title>"
                            + html(title)
                            + " · Editlock</title><link rel=\"stylesheet\" href=\""
                            + request.getContextPath()
                            + "/resources/css/editlock.css\"></head><body><header class=\"bar\"><a class=\"brand\" href=\""
                            + request.getContextPath()
                            + "/\">Editlock</a>"
                            + languages(request, uri, reader)
                            + "</header><main><h1>"
                            + html(title)
                            + "</h1><p data-testid=\"error-message\">"
                            + html(message)
                            + "</p>"
                            + typed(reader, typed)
                            + "<p><a href=\""
                            + request.getContextPath()
                            + "/\">"
                            + html(words(reader, "error.back"))
                            + "</a></p></main>"
                            + "</body></html>");
        }
        out.flush();
    }

    /**
     * English · Deutsch, as in every page's header: on a page that was asked for with GET (a form
     * post's answer would be lost by asking again), each link the same address in that language.
     */
    private static String languages(HttpServletRequest request, String uri, Locale reader) {
        if (!"GET".equals(request.getMethod())
                || uri.startsWith(request.getContextPath() + "/oidc/")) {
            // a form post's answer would be lost by asking again; a sign-in's answer carries a
            // code and a state, which a link must not repeat
            return "";
        }
        StringBuilder b =
                new StringBuilder("<nav class=\"languages\" aria-label=\"")
                        .append(html(words(reader, "nav.language")))
                        .append("\" data-testid=\"languages\">");
        for (Locale language : Languages.SPOKEN) {
            String code = language.getLanguage();
            b.append("<a href=\"")
                    .append(html(Languages.link(uri, request.getQueryString(), code)))
                    .append("\" lang=\"")
                    .append(code)
                    .append("\" hreflang=\"")
                    .append(code)
                    .append("\" data-testid=\"lang-")
                    .append(code)
                    .append("\" aria-current=\"")
                    .append(code.equals(reader.getLanguage()) ? "page" : "false")
                    .append("\">")
                    .append(language.getDisplayLanguage(language))
                    .append("</a>");
        }
        return b.append("</nav>").toString();
    }

    private static String words(Locale reader, String key, Object... args) {
        String pattern = Languages.text(reader).getString(key);
        return args.length == 0 ? pattern : new MessageFormat(pattern, reader).format(args);
    }

    private static String typed(Locale reader, Map<String, String> typed) {
        if (typed.isEmpty()) {
            return "";
        }
        StringBuilder b =
                new StringBuilder(
                        "<section class=\"card\" data-testid=\"typed-values\"><h2>"
                                + html(words(reader, "error.typed"))
                                + "</h2>");
        typed.forEach(
                (label, value) ->
                        b.append("<label>")
                                .append(html(label))
                                .append("<textarea readonly rows=\"")
                                .append(
                                        Math.min(
                                                8,
                                                1
                                                        + value.length() / 80
                                                        + (int)
                                                                value.chars()
                                                                        .filter(c -> c == '\n')
                                                                        .count()))
                                .append("\">")
                                .append(html(value))
                                .append("</textarea></label>"));
        return b.append("</section>").toString();
    }

    /** The bundle's key for {@code status}'s heading. */
    static String titleKey(int status) {
        return switch (status) {
            case 400, 401, 403, 404, 405, 413, 415, 429, 503 -> "error.title." + status;
            default -> status >= 500 ? "error.title.5xx" : "error.title.other";
        };
    }

    /**
     * The bundle's key for the sentence a user sees for a status the container reports without one
     * of ours; {@code error.sentence.other} takes the status as its argument.
     */
    static String sentenceKey(int status) {
        return switch (status) {
            case 400, 401, 403, 404, 405, 413, 415 -> "error.sentence." + status;
            default -> status >= 500 ? "error.sentence.5xx" : "error.sentence.other";
        };
    }

    static String html(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /**
     * The JSON answer {@code {"error": message}}, written by JSON-P as every other answer of the
     * API is.
     */
    public static String errorJson(String message) {
        return jakarta.json.Json.createObjectBuilder().add("error", message).build().toString();
    }
}
