package com.editlock.web;

import jakarta.faces.application.ViewHandler;
import jakarta.faces.application.ViewHandlerWrapper;
import jakarta.faces.context.ExternalContext;
import jakarta.faces.context.FacesContext;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The language of a page: the one the reader picked on any page ({@code ?lang=de}, kept in the
 * cookie {@value #COOKIE} for a year, also before login), else the first of the browser's {@code
 * Accept-Language} that Editlock speaks (English or German), else English. A value outside those is
 * ignored.
 */
public class LanguageViewHandler extends ViewHandlerWrapper {

    public static final String COOKIE = "editlock-lang";
    public static final String PARAMETER = "lang";

    public LanguageViewHandler(ViewHandler wrapped) {
        super(wrapped);
    }

    @Override
    public Locale calculateLocale(FacesContext context) {
        ExternalContext external = context.getExternalContext();
        Locale picked = spoken(external.getRequestParameterMap().get(PARAMETER));
        if (picked != null) {
            Map<String, Object> cookie = new HashMap<>();
            cookie.put("path", external.getRequestContextPath() + "/");
            cookie.put("maxAge", 365 * 24 * 3600);
            cookie.put("secure", external.isSecure());
            // SameSite=Lax: the HTTP listener adds it to every cookie
            // (server-config/pre-boot-commands.asadmin)
            external.addResponseCookie(COOKIE, picked.getLanguage(), cookie);
            return picked;
        }
        Object kept = external.getRequestCookieMap().get(COOKIE);
        if (kept instanceof jakarta.servlet.http.Cookie c && spoken(c.getValue()) != null) {
            return spoken(c.getValue());
        }
        return super.calculateLocale(context);
    }

    /** English or German for "en" or "de"; {@code null} for anything else. */
    static Locale spoken(String code) {
        if (code == null) {
            return null;
        }
        return Viewpoint.LANGUAGES.stream()
                .filter(l -> l.getLanguage().equals(code))
                .findFirst()
                .orElse(null);
    }
}
