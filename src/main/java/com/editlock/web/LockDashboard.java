package com.editlock.web;

import com.editlock.configurator.ConfiguratorService;
import com.editlock.live.LivePages;
import com.editlock.live.Presence;
import com.editlock.live.Viewer;
import com.editlock.lock.Lock;
import com.editlock.lock.LockAdministration;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockPage;
import com.editlock.lock.LockQuery;
import com.editlock.lock.LockSummary;
import com.editlock.platform.Settings;
import com.editlock.security.CurrentOwner;
import com.editlock.security.SessionTimeout;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The admin's lock dashboard (admins only, by the web.xml constraint on {@code /admin/*}): every
 * live lock across all nodes, filtered, sorted and paged by the database, updated as locks come and
 * go (the page is told of every change, like the list), with force release of one lock, a
 * selection, or everything one user holds — always with a reason, after a confirmation.
 */
@Named
@ViewScoped
public class LockDashboard implements Serializable {

    private static final long serialVersionUID = 1L;
    static final int PAGE_SIZE = 50;

    /**
     * One row of the table, its words and times in the reader's language and zone. (A class with
     * getters: Jakarta EL reads bean properties.)
     */
    public static final class Row implements Serializable {
        private static final long serialVersionUID = 1L;
        private final Lock lock;
        private final String label;
        private final String outcome;
        private final int viewers;
        private final boolean old;
        private final String asked;
        private final String mode;
        private final String acquiredAt;
        private final String heldFor;
        private final String idleFor;
        private final String expiresIn;
        private final int heldShare;

        Row(
                Lock lock,
                String label,
                String outcome,
                int viewers,
                Duration oldAfter,
                Instant now,
                String asked,
                Viewpoint reader) {
            this.lock = lock;
            this.label = label;
            this.outcome = outcome;
            this.viewers = viewers;
            Duration held = Duration.between(lock.acquiredAt(), now);
            this.old = held.compareTo(oldAfter) >= 0;
            this.asked = asked;
            this.mode = reader.say("mode." + lock.mode().name());
            this.acquiredAt = reader.dateTime(lock.acquiredAt());
            this.heldFor = reader.duration(held);
            this.idleFor = reader.duration(Duration.between(lock.renewedAt(), now));
            this.expiresIn = reader.duration(Duration.between(now, lock.expiresAt()));
            this.heldShare =
                    (int)
                            Math.min(
                                    100,
                                    Math.max(
                                            2,
                                            held.toSeconds()
                                                    * 100
                                                    / Math.max(1, oldAfter.toSeconds())));
        }

        /** Who asked the holder to hand it over and is waiting for the answer; empty if nobody. */
        public String getAsked() {
            return asked;
        }

        public String getResource() {
            return lock.key().toString();
        }

        public String getLabel() {
            return label;
        }

        public String getOutcome() {
            return outcome;
        }

        public long getId() {
            return lock.key().id();
        }

        public String getMode() {
            return mode;
        }

        public String getHolder() {
            return lock.displayName();
        }

        public String getLogin() {
            return lock.userLogin();
        }

        public String getAcquiredAt() {
            return acquiredAt;
        }

        public String getHeldFor() {
            return heldFor;
        }

        /** How far the lock is on its way to being marked old, in percent (the bar's length). */
        public int getHeldShare() {
            return heldShare;
        }

        public String getIdleFor() {
            return idleFor;
        }

        public String getExpiresIn() {
            return expiresIn;
        }

        public long getToken() {
            return lock.fencingToken();
        }

        public int getViewers() {
            return viewers;
        }

        public boolean isOld() {
            return old;
        }
    }

    @Inject LockAdministration administration;

    @Inject ConfiguratorService configurators;

    @Inject Presence presence;

    @Inject com.editlock.lock.Handovers handovers;

    @Inject LivePages live;

    @Inject CurrentOwner owner;

    @Inject Settings settings;

    @Inject Viewpoint reader;

    private final String viewToken = UUID.randomUUID().toString();
    private String user;
    private String kind = "";
    private Integer minAgeMinutes;
    private LockQuery.Sort sort = LockQuery.Sort.ACQUIRED;
    private boolean descending;
    private final Paging paging = new Paging(PAGE_SIZE);
    private List<Row> rows = List.of();
    private LockSummary summary;
    private final Map<String, Boolean> selected = new LinkedHashMap<>();

    /** What a confirmation would release: keys, or everything of one user. */
    private List<String> pendingKeys = List.of();

    private String pendingUser;
    private String reason;

    @PostConstruct
    void open() {
        live.open(viewToken, owner.get().ownerId(), null, null);
        load();
    }

    @PreDestroy
    void close() {
        if (live != null) {
            live.forget(viewToken);
        }
    }

    /**
     * The page's own look when news arrives: reads the current page again, as the page's
     * background.
     */
    public void refresh() {
        SessionTimeout.background();
        load();
    }

    /** Reads the current page again. */
    public void load() {
        LockKey.Kind wanted = kind == null || kind.isEmpty() ? null : LockKey.Kind.valueOf(kind);
        LockPage<Lock> found =
                administration.find(
                        new LockQuery(
                                user,
                                wanted,
                                minAgeMinutes == null ? null : minAgeMinutes * 60,
                                sort,
                                descending,
                                paging.offset(),
                                paging.size()));
        paging.found(found.total(), found.rows().size());
        if (paging.pastTheEnd()) {
            load();
            return;
        }
        Map<LockKey, com.editlock.configurator.RecordName> names =
                configurators.recordNames(found.rows().stream().map(Lock::key).toList());
        Instant now = Instant.now();
        Duration old = Duration.ofMinutes(settings.oldLockMinutes());
        List<Row> shown = new ArrayList<>();
        Map<LockKey, List<Viewer>> viewers =
                presence.viewers(found.rows().stream().map(Lock::key).toList());
        Map<Long, String> asked = new java.util.HashMap<>();
        handovers
                .openFor(found.rows().stream().map(Lock::key).toList())
                .forEach(
                        r ->
                                asked.merge(
                                        r.holderToken(),
                                        reader.say(
                                                "dashboard.askedUntil",
                                                r.askerName(),
                                                reader.clockSeconds(r.expiresAt())),
                                        (a, b) -> a + ", " + b));
        for (Lock l : found.rows()) {
            shown.add(
                    new Row(
                            l,
                            reader.record(names.get(l.key())),
                            outcome(l.key()),
                            viewers.getOrDefault(l.key(), List.of()).size(),
                            old,
                            now,
                            asked.getOrDefault(l.fencingToken(), ""),
                            reader));
        }
        rows = shown;
        summary = administration.summary();
        selected.keySet().retainAll(shown.stream().map(Row::getResource).toList());
    }

    public void applyFilter() {
        paging.first();
        load();
    }

    public void sortBy(String column) {
        LockQuery.Sort wanted = LockQuery.Sort.valueOf(column);
        descending = wanted == sort && !descending;
        sort = wanted;
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

    /** Asks for a reason before releasing one lock. */
    public void askRelease(String resource) {
        pendingKeys = List.of(resource);
        pendingUser = null;
    }

    public void askReleaseSelected() {
        pendingKeys =
                selected.entrySet().stream()
                        .filter(Map.Entry::getValue)
                        .map(Map.Entry::getKey)
                        .toList();
        pendingUser = null;
        if (pendingKeys.isEmpty()) {
            message(FacesMessage.SEVERITY_ERROR, "Tick the locks to release first.");
        }
    }

    public void askReleaseAllOf(String login) {
        pendingKeys = List.of();
        pendingUser = login;
    }

    public void cancel() {
        pendingKeys = List.of();
        pendingUser = null;
        reason = null;
    }

    /** Releases what was asked for, with the reason; the holders' open pages say who and why. */
    public void confirm() {
        if (reason == null || reason.isBlank()) {
            FacesContext.getCurrentInstance()
                    .addMessage(
                            "confirm:reason",
                            new FacesMessage(
                                    FacesMessage.SEVERITY_ERROR,
                                    reader.say("dashboard.reason.required"),
                                    null));
            return;
        }
        if (reason.length() > 500) {
            FacesContext.getCurrentInstance()
                    .addMessage(
                            "confirm:reason",
                            new FacesMessage(
                                    FacesMessage.SEVERITY_ERROR,
                                    reader.say("dashboard.reason.tooLong"),
                                    null));
            return;
        }
        String admin = owner.get().login();
        int released = 0;
        if (pendingUser != null) {
            released = administration.forceReleaseAllOf(pendingUser, admin, reason).size();
        } else {
            released =
                    administration
                            .forceRelease(
                                    pendingKeys.stream().map(LockKey::parse).toList(),
                                    admin,
                                    reason)
                            .size();
        }
        message(FacesMessage.SEVERITY_INFO, reader.say("dashboard.released", released));
        cancel();
        selected.clear();
        load();
    }

    public boolean isConfirming() {
        return pendingUser != null || !pendingKeys.isEmpty();
    }

    /** What the confirmation asks about. */
    public String getPendingDescription() {
        if (pendingUser != null) {
            return reader.say("dashboard.confirm.all", pendingUser);
        }
        Map<LockKey, com.editlock.configurator.RecordName> names =
                configurators.recordNames(pendingKeys.stream().map(LockKey::parse).toList());
        return reader.say(
                "dashboard.confirm.some",
                pendingKeys.size(),
                pendingKeys.stream()
                        .map(k -> reader.record(names.get(LockKey.parse(k))))
                        .collect(Collectors.joining(", ")));
    }

    private static String outcome(LockKey key) {
        return switch (key.kind()) {
            case CONFIGURATOR -> "/configurator";
            case CONFIGURATOR_VARIABLES -> "/variables";
            case ITEM_FILTERS -> "/filters";
        };
    }

    private static void message(FacesMessage.Severity severity, String text) {
        FacesContext.getCurrentInstance().addMessage(null, new FacesMessage(severity, text, null));
    }

    public List<Row> getRows() {
        return rows;
    }

    public long getTotal() {
        return paging.total();
    }

    public String getWindow() {
        return paging.window(reader, "dashboard.none");
    }

    public boolean isHasNext() {
        return paging.hasNext();
    }

    public boolean isHasPrevious() {
        return paging.hasPrevious();
    }

    public LockSummary getSummary() {
        return summary;
    }

    public String getOldest() {
        return summary.oldestSince() == null
                ? reader.say("dashboard.oldest.none")
                : reader.duration(Duration.between(summary.oldestSince(), Instant.now()));
    }

    public String getSortedBy() {
        return reader.say(
                descending ? "dashboard.sorted.down" : "dashboard.sorted.up",
                reader.say("sort." + sort.name()));
    }

    /** The arrow after the column the table is sorted by ("↑" or "↓"); empty for the others. */
    public String sortMark(String column) {
        return sort.name().equals(column) ? (descending ? " ↓" : " ↑") : "";
    }

    public Map<String, Boolean> getSelected() {
        return selected;
    }

    public String getViewToken() {
        return viewToken;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    public Integer getMinAgeMinutes() {
        return minAgeMinutes;
    }

    public void setMinAgeMinutes(Integer minAgeMinutes) {
        this.minAgeMinutes = minAgeMinutes;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public int getOldLockMinutes() {
        return settings.oldLockMinutes();
    }
}
