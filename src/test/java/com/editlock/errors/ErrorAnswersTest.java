package com.editlock.errors;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The container's error pages speak the reader's language; the API keeps English. */
class ErrorAnswersTest {

    /** What was answered: headers, cookies and the body. */
    private static final class Answer {
        final Map<String, String> headers = new HashMap<>();
        final List<Cookie> cookies = new ArrayList<>();
        final StringWriter body = new StringWriter();
        int status;

        HttpServletResponse response() {
            PrintWriter writer = new PrintWriter(body);
            return (HttpServletResponse)
                    Proxy.newProxyInstance(
                            getClass().getClassLoader(),
                            new Class<?>[] {HttpServletResponse.class},
                            (proxy, method, args) -> {
                                switch (method.getName()) {
                                    case "setStatus" -> status = (Integer) args[0];
                                    case "setHeader", "addHeader" ->
                                            headers.put((String) args[0], (String) args[1]);
                                    case "setContentType" ->
                                            headers.put("Content-Type", (String) args[0]);
                                    case "addCookie" -> cookies.add((Cookie) args[0]);
                                    case "getWriter" -> {
                                        return writer;
                                    }
                                    case "isCommitted" -> {
                                        return false;
                                    }
                                    default -> {}
                                }
                                return null;
                            });
        }
    }

    private static HttpServletRequest request(
            String method, String uri, String lang, Cookie cookie, Locale browser) {
        return (HttpServletRequest)
                Proxy.newProxyInstance(
                        ErrorAnswersTest.class.getClassLoader(),
                        new Class<?>[] {HttpServletRequest.class},
                        (proxy, m, args) ->
                                switch (m.getName()) {
                                    case "getMethod" -> method;
                                    case "getContextPath" -> "/editlock";
                                    case "getRequestURI" -> uri;
                                    case "getQueryString" ->
                                            lang == null ? "id=3" : "id=3&lang=" + lang;
                                    case "getParameter" -> "lang".equals(args[0]) ? lang : null;
                                    case "getCookies" ->
                                            cookie == null ? null : new Cookie[] {cookie};
                                    case "getLocales" -> Collections.enumeration(List.of(browser));
                                    case "isSecure" -> false;
                                    default -> null;
                                });
    }

    @Test
    void aGermanBrowserReadsTheErrorPageInGermanWithTheLanguageSwitch() throws Exception {
        Answer a = new Answer();
        ErrorAnswers.say(
                request("GET", "/editlock/admin/locks.xhtml", null, null, Locale.GERMANY),
                a.response(),
                403,
                "error.forbidden.admin");
        String page = a.body.toString();
        assertThat(a.status).isEqualTo(403);
        assertThat(a.headers).containsEntry("Content-Language", "de");
        assertThat(page)
                .contains("<html lang=\"de\">")
                .contains("<h1>Nicht erlaubt</h1>")
                .contains("Diese Seite ist für Administratoren.")
                .contains(">Zurück zu den Konfiguratoren</a>")
                .contains(
                        "href=\"/editlock/admin/locks.xhtml?id=3&amp;lang=en\" lang=\"en\""
                                + " hreflang=\"en\" data-testid=\"lang-en\" aria-current=\"false\">English")
                .contains("aria-current=\"page\">Deutsch</a>");
        assertThat(a.cookies).as("no choice was made: nothing to keep").isEmpty();
    }

    @Test
    void thePickedLanguageBeatsTheBrowserAndIsKept() throws Exception {
        Answer a = new Answer();
        ErrorAnswers.say(
                request(
                        "GET",
                        "/editlock/admin/locks.xhtml",
                        "en",
                        new Cookie("editlock-lang", "de"),
                        Locale.GERMANY),
                a.response(),
                403,
                "error.forbidden.admin");
        assertThat(a.body.toString()).contains("<h1>Not allowed</h1>");
        assertThat(a.cookies)
                .singleElement()
                .satisfies(
                        c -> {
                            assertThat(c.getName()).isEqualTo("editlock-lang");
                            assertThat(c.getValue()).isEqualTo("en");
                            assertThat(c.getPath()).isEqualTo("/editlock/");
                            assertThat(c.getMaxAge()).isEqualTo(365 * 24 * 3600);
                        });
    }

    @Test
    void whatWasTypedIsShownUnderAGermanHeadingAndAPostAnswerOffersNoSwitch() throws Exception {
        Answer a = new Answer();
        ErrorAnswers.sayWithTyped(
                request(
                        "POST",
                        "/editlock/configurator.xhtml",
                        null,
                        new Cookie("editlock-lang", "de"),
                        Locale.US),
                a.response(),
                400,
                "error.expired.title",
                "error.expired.typed",
                Map.of("Description", "Rahmen <b>"));
        assertThat(a.body.toString())
                .contains("<h1>Diese Seite ist abgelaufen</h1>")
                .contains("<h2>Ihre Eingaben (nicht gespeichert)</h2>")
                .contains("Rahmen &lt;b&gt;</textarea>")
                .doesNotContain("data-testid=\"languages\"");
    }

    @Test
    void theApiAnswersInEnglishWhateverTheBrowserSpeaks() throws Exception {
        Answer a = new Answer();
        ErrorAnswers.say(
                request(
                        "POST",
                        "/editlock/api/locks",
                        "de",
                        new Cookie("editlock-lang", "de"),
                        Locale.GERMANY),
                a.response(),
                413,
                "error.tooLarge",
                65536L);
        assertThat(a.headers).containsEntry("Content-Type", "application/json");
        assertThat(a.body.toString())
                .isEqualTo(
                        "{\"error\":\"The request body is larger than the 65536 bytes this server"
                                + " accepts.\"}");
        assertThat(a.cookies).isEmpty();
    }
}
