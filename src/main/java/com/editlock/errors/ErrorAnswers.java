package com.editlock.errors;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;

/**
 * Editlock's own error answers: a JSON {@code {"error": "…"}} under {@code /api}, a plain page with
 * the same sentence anywhere else. Neither names the server product or its version, and neither
 * carries a stack trace.
 */
public final class ErrorAnswers {

    private ErrorAnswers() {}

    public static void send(
            HttpServletRequest request, HttpServletResponse response, int status, String message)
            throws IOException {
        send(request, response, status, title(status), message);
    }

    /** The same, with a heading of its own for the page. */
    public static void send(
            HttpServletRequest request,
            HttpServletResponse response,
            int status,
            String title,
            String message)
            throws IOException {
        send(request, response, status, title, message, Map.of());
    }

    /**
     * The same, and on a page what the user had typed ({@link TypedValues}), each in a read-only
     * box to copy from, because the request that carried it could not be processed.
     */
    public static void send(
            HttpServletRequest request,
            HttpServletResponse response,
            int status,
            String title,
            String message,
            Map<String, String> typed)
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
        if (uri.startsWith(request.getContextPath() + "/api/")) {
            response.setContentType("application/json");
            out.write("{\"error\":" + json(message) + "}");
        } else {
            response.setContentType("text/html");
            out.write(
                    "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"UTF-8\"><title>"
                            + html(title)
                            + " · Editlock</title><link rel=\"stylesheet\" href=\""
                            + request.getContextPath()
                            + "/resources/css/editlock.css\"></head><body><header class=\"bar\"><a class=\"brand\" href=\""
                            + request.getContextPath()
                            + "/\">Editlock</a></header><main><h1>"
                            + html(title)
                            + "</h1><p data-testid=\"error-message\">"
                            + html(message)
                            + "</p>"
                            + typed(typed)
                            + "<p><a href=\""
                            + request.getContextPath()
                            + "/\">Back to the configurators</a></p></main>"
                            + "</body></html>");
        }
        out.flush();
    }

    private static String typed(Map<String, String> typed) {
        if (typed.isEmpty()) {
            return "";
        }
        StringBuilder b =
                new StringBuilder(
                        "<section class=\"card\" data-testid=\"typed-values\"><h2>What you typed "
                                + "(not saved)</h2>");
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

    /** A short heading for {@code status}. */
    static String title(int status) {
        return switch (status) {
            case 400 -> "Bad request";
            case 401 -> "Please log in";
            case 403 -> "Not allowed";
            case 404 -> "Not found";
            case 405 -> "Not allowed here";
            case 413 -> "Too large";
            case 415 -> "Wrong content type";
            case 429 -> "Too many attempts";
            case 503 -> "Try again in a moment";
            default -> status >= 500 ? "Something went wrong" : "Request refused";
        };
    }

    /** The sentence a user sees for a status the container reports without one of ours. */
    static String sentence(int status) {
        return switch (status) {
            case 400 -> "The request was not understood; nothing was changed.";
            case 401 -> "Log in to continue.";
            case 403 -> "You are not allowed to do this.";
            case 404 -> "There is no such page or API resource.";
            case 405 -> "This method is not allowed here.";
            case 413 -> "The request body is too large; nothing was changed.";
            case 415 -> "Send the body as application/json.";
            default ->
                    status >= 500
                            ? "Something went wrong on the server; nothing was changed. Try again, and tell an administrator "
                                    + "if it keeps happening."
                            : "The request was refused (HTTP " + status + ").";
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

    public static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&') {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
