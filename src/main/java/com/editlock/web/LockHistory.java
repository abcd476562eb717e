package com.editlock.web;

import com.editlock.lock.HistoryQuery;
import com.editlock.lock.InvalidLockKeyException;
import com.editlock.lock.LockAdministration;
import com.editlock.lock.LockEvent;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockPage;
import com.editlock.platform.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;

/**
 * The lock history for admins: every grant, refusal and release, filtered, newest first, a page at
 * a time.
 */
@Named
@ViewScoped
public class LockHistory implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final int PAGE_SIZE = 50;

    @Inject LockAdministration administration;

    @Inject Settings settings;

    @Inject Viewpoint reader;

    @Inject com.editlock.configurator.ConfiguratorService configurators;

    @Inject com.editlock.security.UserDirectory directory;

    /**
     * One line of the history in words, in the reader's language and zone; the key and the token
     * stay as details an admin can copy.
     */
    public record Line(
            String when, String what, String record, String key, String mode, Long token) {}

    private String resource;
    private String user;
    private String type = "";
    private String from;
    private String until;
    private final Paging paging = new Paging(PAGE_SIZE);
    private List<Line> rows = List.of();

    @PostConstruct
    void open() {
        load();
    }

    public void applyFilter() {
        paging.first();
        load();
    }

    public void next() {
        paging.next();
        load();
    }

    public void previous() {
        paging.previous();
        load();
    }

    private void load() {
        LockKey key = null;
        if (resource != null && !resource.isBlank()) {
            try {
                key = LockKey.parse(resource);
            } catch (InvalidLockKeyException e) {
                error("filter:resource", reader.say("history.key.invalid"));
                return;
            }
        }
        Instant since = instant(from, "filter:from");
        Instant before = instant(until, "filter:until");
        if (FacesContext.getCurrentInstance() != null
                && FacesContext.getCurrentInstance().isValidationFailed()) {
            return;
        }
        LockPage<LockEvent> found =
                administration.history(
                        new HistoryQuery(
                                key,
                                user,
                                type == null || type.isEmpty() ? null : LockEventType.valueOf(type),
                                since,
                                before,
                                paging.offset(),
                                paging.size()));
        java.util.Map<LockKey, com.editlock.configurator.RecordName> names =
                configurators.recordNames(
                        found.rows().stream()
                                .map(LockEvent::resource)
                                .distinct()
                                .map(LockKey::parse)
                                .toList());
        java.util.Map<String, String> actors = new java.util.HashMap<>();
        rows =
                found.rows().stream()
                        .map(
                                e ->
                                        new Line(
                                                reader.dateTime(e.at()),
                                                what(e, actors),
                                                reader.record(
                                                        names.get(LockKey.parse(e.resource()))),
                                                e.resource(),
                                                e.mode() == null
                                                        ? ""
                                                        : reader.say("mode." + e.mode()),
                                                e.fencingToken()))
                        .toList();
        paging.found(found.total(), rows.size());
    }

    /** What happened, by its cause, naming the people: "Ada released Sara's lock: Audit". */
    private String what(LockEvent e, java.util.Map<String, String> actors) {
        String who = e.displayName() == null ? e.userLogin() : e.displayName();
        String said =
                reader.say(
                        "event." + e.type().name(),
                        who == null ? "" : who,
                        e.actor() == null
                                ? ""
                                : actors.computeIfAbsent(e.actor(), directory::displayName),
                        e.reason() == null || e.reason().isBlank() ? "" : e.reason(),
                        settings.leaseSeconds(),
                        e.reason() == null || e.reason().isBlank() ? 0 : 1);
        return e.repeats() > 0 ? said + reader.say("event.repeats", e.repeats()) : said;
    }

    private Instant instant(String text, String field) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            Instant at = LocalDateTime.parse(text.strip()).atZone(reader.zone()).toInstant();
            if (!HistoryQuery.inRange(at)) {
                error(field, reader.say("history.time.range"));
                return null;
            }
            return at;
        } catch (DateTimeParseException e) {
            error(field, reader.say("history.time.format"));
            return null;
        }
    }

    private static void error(String field, String message) {
        FacesContext faces = FacesContext.getCurrentInstance();
        faces.addMessage(field, new FacesMessage(FacesMessage.SEVERITY_ERROR, message, null));
        faces.validationFailed();
    }

    public List<LockEventType> getTypes() {
        return Arrays.asList(LockEventType.values());
    }

    public List<Line> getRows() {
        return rows;
    }

    public String getWindow() {
        return paging.window(reader, "history.none");
    }

    public boolean isHasNext() {
        return paging.hasNext();
    }

    public boolean isHasPrevious() {
        return paging.hasPrevious();
    }

    public int getRetentionDays() {
        return settings.auditRetentionDays();
    }

    public String getResource() {
        return resource;
    }

    public void setResource(String resource) {
        this.resource = resource;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    public String getFrom() {
        return from;
    }

    public void setFrom(String from) {
        this.from = from;
    }

    public String getUntil() {
        return until;
    }

    public void setUntil(String until) {
        this.until = until;
    }
}
