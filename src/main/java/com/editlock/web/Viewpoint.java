package com.editlock.web;

import com.editlock.platform.Languages;
import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Named;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.text.MessageFormat;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

/**
 * Who is reading a screen: their language and their time zone, and the words and times a screen
 * shows them. The language is the one Faces settled for the page ({@link LanguageViewHandler}: the
 * reader's choice, else the browser's {@code Accept-Language}); the zone is the browser's own,
 * which every page's script keeps in the cookie {@value #ZONE_COOKIE} (UTC until a page has run).
 * Every sentence comes from the bundle {@code com.editlock.platform.Text} ({@code Text_de} in
 * German).
 */
@Named("viewpoint")
@RequestScoped
public class Viewpoint {

    public static final String ZONE_COOKIE = "editlock-zone";

    @jakarta.inject.Inject com.editlock.platform.Settings settings;

    private Locale locale;
    private ZoneId zone;
    private ResourceBundle text;

    /** A reader outside a request (a unit test): this language, this zone. */
    public static Viewpoint of(Locale locale, ZoneId zone) {
        Viewpoint v = new Viewpoint();
        v.locale = locale;
        v.zone = zone;
        return v;
    }

    public Locale locale() {
        if (locale == null) {
            FacesContext faces = FacesContext.getCurrentInstance();
            locale =
                    Languages.nearest(
                            faces != null && faces.getViewRoot() != null
                                    ? faces.getViewRoot().getLocale()
                                    : null);
        }
        return locale;
    }

    public ZoneId zone() {
        if (zone == null) {
            zone = zoneOf(request());
        }
        return zone;
    }

    /** How long a lease lasts without a heartbeat, for "no sign of her for 10 s". */
    public int leaseSeconds() {
        return settings == null
                ? com.editlock.platform.Settings.DEFAULT_LEASE_SECONDS
                : settings.leaseSeconds();
    }

    /** The language's code, for {@code <html lang>}. */
    public String getLanguage() {
        return locale().getLanguage();
    }

    /** The zone's name as the reader's clock knows it ("Europe/Berlin"). */
    public String getZoneName() {
        return zone().getId();
    }

    /** The sentence {@code key} of the bundle, with {@code args} put in its places. */
    public String say(String key, Object... args) {
        String pattern;
        try {
            pattern = bundle().getString(key);
        } catch (MissingResourceException e) {
            throw new IllegalStateException("No text " + key + " in " + Languages.BUNDLE, e);
        }
        return args.length == 0 ? pattern : new MessageFormat(pattern, locale()).format(args);
    }

    /** A time of day ("14:32" in German, "2:32 PM" in English). */
    public String clock(Instant at) {
        return timeOfDay(at, FormatStyle.SHORT);
    }

    /** A time of day to the second. */
    public String clockSeconds(Instant at) {
        return timeOfDay(at, FormatStyle.MEDIUM);
    }

    private String timeOfDay(Instant at, FormatStyle style) {
        return at == null
                ? ""
                : DateTimeFormatter.ofLocalizedTime(style)
                        .withLocale(locale())
                        .withZone(zone())
                        .format(at);
    }

    /** A date and time with the zone's short name ("02.12.2026, 20:32:10 MEZ"). */
    public String dateTime(Instant at) {
        if (at == null) {
            return "";
        }
        return DateTimeFormatter.ofLocalizedDateTime(FormatStyle.MEDIUM)
                        .withLocale(locale())
                        .withZone(zone())
                        .format(at)
                + " "
                + DateTimeFormatter.ofPattern("zzz", locale()).withZone(zone()).format(at);
    }

    /**
     * A record as people know it: "Road bike", "Road bike › Variables", "Road bike › Frame ›
     * Filters".
     */
    public String record(com.editlock.configurator.RecordName name) {
        if (name.configurator() == null) {
            return say("record.gone", name.key().toString());
        }
        return switch (name.key().kind()) {
            case CONFIGURATOR -> name.configurator();
            case CONFIGURATOR_VARIABLES -> say("record.variables", name.configurator());
            case ITEM_FILTERS -> say("record.filters", name.configurator(), name.item());
        };
    }

    /** How long, in words: "12 s", "3 min", "2 h 5 min", "4 days". */
    public String duration(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 60) {
            return say("duration.seconds", s);
        }
        if (s < 3600) {
            return say("duration.minutes", s / 60);
        }
        if (s < 86_400) {
            return say("duration.hours", s / 3600, (s % 3600) / 60);
        }
        return say("duration.days", s / 86_400);
    }

    /** How long ago, in words: "2 min ago" ("vor 2 Min."). */
    public String ago(Instant at) {
        return at == null ? "" : say("ago", duration(Duration.between(at, Instant.now())));
    }

    /**
     * What the page's script says, in the reader's language: {@code js.*} of the bundle, as JSON.
     */
    public String getScriptWords() {
        var json = jakarta.json.Json.createObjectBuilder();
        ResourceBundle b = bundle();
        for (String key : java.util.Collections.list(b.getKeys())) {
            if (key.startsWith("js.")) {
                json.add(key.substring(3), b.getString(key));
            }
        }
        return json.build().toString();
    }

    /**
     * This page's address in another language: the same path and parameters, with {@code
     * lang=code}.
     */
    public String languageLink(String code) {
        HttpServletRequest request = request();
        if (request == null) {
            return "?lang=" + code;
        }
        return Languages.link(request.getRequestURI(), request.getQueryString(), code);
    }

    private ResourceBundle bundle() {
        if (text == null) {
            text = Languages.text(locale());
        }
        return text;
    }

    private static HttpServletRequest request() {
        FacesContext faces = FacesContext.getCurrentInstance();
        return faces == null ? null : (HttpServletRequest) faces.getExternalContext().getRequest();
    }

    /** The zone the request's cookie names, if it is a zone this JVM knows; else UTC. */
    static ZoneId zoneOf(HttpServletRequest request) {
        Cookie[] cookies = request == null ? null : request.getCookies();
        if (cookies != null) {
            for (Cookie c : cookies) {
                String v = c.getValue();
                if (ZONE_COOKIE.equals(c.getName()) && v != null && v.length() <= 64) {
                    try {
                        return ZoneId.of(v);
                    } catch (DateTimeException e) {
                        // not a zone: UTC, as before the page's script ran
                    }
                }
            }
        }
        return ZoneId.of("UTC");
    }
}
