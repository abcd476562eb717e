package com.editlock.platform;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.ResourceBundle;

/**
 * The languages Editlock speaks (English and German) and how a request picks one: the reader's
 * choice ({@code ?lang=de}, kept in the cookie {@value #COOKIE}), else the first language of the
 * browser's {@code Accept-Language} that Editlock speaks, else English. Faces pages and the
 * container's error pages choose by the same rule, so a reader never meets a page in the other
 * language.
 */
public final class Languages {

    public static final String COOKIE = "editlock-lang";
    public static final String PARAMETER = "lang";

    /** Every sentence: {@code Text.properties} in English, {@code Text_de.properties} in German. */
    public static final String BUNDLE = "com.editlock.platform.Text";

    public static final List<Locale> SPOKEN = List.of(Locale.ENGLISH, Locale.GERMAN);

    private Languages() {}

    /** English or German for "en" or "de"; {@code null} for anything else. */
    public static Locale spoken(String code) {
        if (code == null) {
            return null;
        }
        return SPOKEN.stream().filter(l -> l.getLanguage().equals(code)).findFirst().orElse(null);
    }

    /** {@code locale}'s language if Editlock speaks it, else English. */
    public static Locale nearest(Locale locale) {
        Locale spoken = locale == null ? null : spoken(locale.getLanguage());
        return spoken == null ? Locale.ENGLISH : spoken;
    }

    /** The language {@code request} asks for by parameter, cookie or {@code Accept-Language}. */
    public static Locale of(HttpServletRequest request) {
        Locale picked = spoken(request.getParameter(PARAMETER));
        if (picked != null) {
            return picked;
        }
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie c : cookies) {
                if (COOKIE.equals(c.getName()) && spoken(c.getValue()) != null) {
                    return spoken(c.getValue());
                }
            }
        }
        for (Locale asked : Collections.list(request.getLocales())) {
            Locale spoken = spoken(asked.getLanguage());
            if (spoken != null) {
                return spoken;
            }
        }
        return Locale.ENGLISH;
    }

    /**
     * The language of a page answering {@code request}, by {@link #of}; a language picked with
     * {@code ?lang=} is also kept for a year in the cookie {@value #COOKIE}, for every page of the
     * application ({@code SameSite=Lax}: the HTTP listener adds it to every cookie).
     */
    public static Locale pick(HttpServletRequest request, HttpServletResponse response) {
        Locale picked = spoken(request.getParameter(PARAMETER));
        if (picked != null) {
            remember(request, response, picked);
        }
        return of(request);
    }

    private static void remember(
            HttpServletRequest request, HttpServletResponse response, Locale picked) {
        Cookie cookie = new Cookie(COOKIE, picked.getLanguage());
        cookie.setPath(request.getContextPath() + "/");
        cookie.setMaxAge(365 * 24 * 3600);
        cookie.setSecure(request.isSecure());
        response.addCookie(cookie);
    }

    /**
     * The address of the page at {@code uri} (with its {@code query}, may be null) in the language
     * {@code code}: the query kept, its own {@code lang} replaced. Always a path on this site: an
     * address asked for as {@code //host/…} (or {@code /\host/…}, which browsers read alike) would
     * otherwise make a link to another site, so its leading slashes become one.
     */
    public static String link(String uri, String query, String code) {
        uri = uri.replaceFirst("^[/\\\\]+", "/");
        StringBuilder kept = new StringBuilder();
        if (query != null) {
            for (String part : query.split("&")) {
                if (!part.isEmpty() && !part.startsWith(PARAMETER + "=")) {
                    kept.append(part).append('&');
                }
            }
        }
        return uri + "?" + kept + PARAMETER + "=" + code;
    }

    /**
     * The sentences in {@code locale}'s language. English is the base bundle itself: the JVM's own
     * default locale never stands in (a server set to German still answers an English reader in
     * English).
     */
    public static ResourceBundle text(Locale locale) {
        return ResourceBundle.getBundle(
                BUNDLE,
                nearest(locale),
                ResourceBundle.Control.getNoFallbackControl(
                        ResourceBundle.Control.FORMAT_PROPERTIES));
    }
}
