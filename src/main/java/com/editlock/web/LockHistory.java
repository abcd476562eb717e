package com.editlock.web;

import com.editlock.lock.HistoryQuery;
import com.editlock.lock.InvalidLockKeyException;
import com.editlock.lock.LockEvent;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
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
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
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
    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

    @Inject transient LockManager locks;

    @Inject transient Settings settings;

    private String resource;
    private String user;
    private String type = "";
    private String from;
    private String until;
    private final Paging paging = new Paging(PAGE_SIZE);
    private List<LockEvent> rows = List.of();

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
                error("filter:resource", e.getMessage());
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
                locks.history(
                        new HistoryQuery(
                                key,
                                user,
                                type == null || type.isEmpty() ? null : LockEventType.valueOf(type),
                                since,
                                before,
                                paging.offset(),
                                paging.size()));
        rows = found.rows();
        paging.found(found.total(), rows.size());
    }

    private static Instant instant(String text, String field) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            Instant at =
                    LocalDateTime.parse(text.strip()).atZone(ZoneId.systemDefault()).toInstant();
            if (!HistoryQuery.inRange(at)) {
                error(field, "Give a time between the years 1970 and 9999.");
                return null;
            }
            return at;
        } catch (DateTimeParseException e) {
            error(field, "Give times as 2026-11-30T14:05.");
            return null;
        }
    }

    private static void error(String field, String message) {
        FacesContext faces = FacesContext.getCurrentInstance();
        faces.addMessage(field, new FacesMessage(FacesMessage.SEVERITY_ERROR, message, null));
        faces.validationFailed();
    }

    public String time(LockEvent e) {
        return CLOCK.format(e.at());
    }

    public List<String> getTypes() {
        return Arrays.stream(LockEventType.values()).map(Enum::name).toList();
    }

    public List<LockEvent> getRows() {
        return rows;
    }

    public String getWindow() {
        return paging.window("Nothing found");
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
