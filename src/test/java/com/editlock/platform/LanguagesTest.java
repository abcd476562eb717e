package com.editlock.platform;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.ResourceBundle;
import org.junit.jupiter.api.Test;

class LanguagesTest {

    /** A request with this parameter, language cookie and Accept-Language (null: none). */
    private static HttpServletRequest request(String parameter, String cookie, Locale... accepts) {
        return (HttpServletRequest)
                Proxy.newProxyInstance(
                        LanguagesTest.class.getClassLoader(),
                        new Class<?>[] {HttpServletRequest.class},
                        (proxy, method, args) ->
                                switch (method.getName()) {
                                    case "getParameter" ->
                                            Languages.PARAMETER.equals(args[0]) ? parameter : null;
                                    case "getCookies" ->
                                            cookie == null
                                                    ? null
                                                    : new Cookie[] {
                                                        new Cookie("JSESSIONID", "x"),
                                                        new Cookie(Languages.COOKIE, cookie)
                                                    };
                                    case "getLocales" ->
                                            Collections.enumeration(
                                                    accepts.length == 0
                                                            ? List.of(Locale.getDefault())
                                                            : List.of(accepts));
                                    default -> null;
                                });
    }

    @Test
    void aLanguageLinkStaysOnThisSiteWhateverAddressWasAskedFor() {
        assertThat(Languages.link("/configurators.xhtml", "id=3&lang=en", "de"))
                .isEqualTo("/configurators.xhtml?id=3&lang=de");
        assertThat(Languages.link("//evil.example/x", null, "de"))
                .isEqualTo("/evil.example/x?lang=de");
        assertThat(Languages.link("/\\evil.example/x", null, "en"))
                .isEqualTo("/evil.example/x?lang=en");
        assertThat(Languages.link("///\\/evil.example", "a=b", "en"))
                .isEqualTo("/evil.example?a=b&lang=en");
    }

    @Test
    void theReadersChoiceBeatsTheCookieWhichBeatsTheBrowser() {
        assertThat(Languages.of(request("de", "en", Locale.ENGLISH))).isEqualTo(Locale.GERMAN);
        assertThat(Languages.of(request(null, "de", Locale.ENGLISH))).isEqualTo(Locale.GERMAN);
        assertThat(Languages.of(request(null, "en", Locale.GERMANY))).isEqualTo(Locale.ENGLISH);
        assertThat(Languages.of(request(null, null, Locale.GERMANY))).isEqualTo(Locale.GERMAN);
    }

    @Test
    void aLanguageEditlockDoesNotSpeakIsPassedOverNeverAnswered() {
        assertThat(Languages.of(request("fr", "xx", Locale.FRENCH, Locale.GERMAN)))
                .as("French first, German second: German")
                .isEqualTo(Locale.GERMAN);
        assertThat(Languages.of(request("<script>", null, Locale.JAPANESE)))
                .isEqualTo(Locale.ENGLISH);
        assertThat(Languages.nearest(null)).isEqualTo(Locale.ENGLISH);
        assertThat(Languages.nearest(Locale.GERMANY)).isEqualTo(Locale.GERMAN);
    }

    @Test
    void anEnglishReaderReadsEnglishOnAServerWhoseOwnLocaleIsGerman() {
        Locale before = Locale.getDefault();
        ResourceBundle.clearCache();
        Locale.setDefault(Locale.GERMANY);
        try {
            assertThat(Languages.text(Locale.ENGLISH).getString("login.submit"))
                    .isEqualTo("Log in");
            // Faces looks its bundle up the plain way (with the JVM's locale as a fallback)
            assertThat(
                            ResourceBundle.getBundle(Languages.BUNDLE, Locale.ENGLISH)
                                    .getString("login.submit"))
                    .isEqualTo("Log in");
            assertThat(Languages.text(Locale.GERMAN).getString("login.submit"))
                    .isEqualTo("Anmelden");
        } finally {
            Locale.setDefault(before);
            ResourceBundle.clearCache();
        }
    }
}
