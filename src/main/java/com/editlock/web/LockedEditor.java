package com.editlock.web;

import com.editlock.configurator.ConcurrentModificationException;
import com.editlock.configurator.Drafts;
import com.editlock.configurator.Editing;
import com.editlock.configurator.InvalidDraftException;
import com.editlock.live.LivePages;
import com.editlock.live.Presence;
import com.editlock.live.Viewer;
import com.editlock.lock.Handovers;
import com.editlock.lock.Lock;
import com.editlock.lock.LockEvent;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockLimitException;
import com.editlock.lock.LockManager;
import com.editlock.lock.LockNotHeldException;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LockRequest;
import com.editlock.lock.LockStoreException;
import com.editlock.lock.LockUnavailableException;
import com.editlock.lock.LostLock;
import com.editlock.lock.ResourceCatalog;
import com.editlock.lock.UnknownResourceException;
import com.editlock.platform.Settings;
import com.editlock.security.CurrentOwner;
import com.editlock.security.SessionTimeout;
import jakarta.annotation.PreDestroy;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Inject;
import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What every editing screen does with its lock. Opening takes the lock before loading; when it is
 * taken the screen is read-only and says by whom. Opened with {@code view=true} the screen is
 * read-only from the start and asks for no lock (nor audits a refusal): it shows the current
 * values, who is editing, and "Edit now" while nobody is. Save writes under the lock's fencing
 * token and releases it; Done releases it. When a save is refused (the lock was lost, or a field is
 * invalid) the screen keeps what the user typed and, for a lost lock, shows the current values
 * beside it. The view's locks also go when the view is destroyed.
 *
 * @param <D> what the screen edits (a draft record of the configurator package)
 */
public abstract class LockedEditor<D extends Serializable> implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(LockedEditor.class.getName());

    @Inject transient LockManager locks;

    @Inject transient CurrentOwner owner;

    @Inject transient Settings settings;

    @Inject transient LivePages live;

    @Inject transient Presence presence;

    @Inject transient ResourceCatalog catalog;

    @Inject transient Drafts drafts;

    @Inject transient com.editlock.configurator.EditVisits visits;

    @Inject transient Handovers handovers;

    @Inject transient com.editlock.security.UserDirectory directory;

    /** The reader's language and zone: every sentence and time on the page. */
    @Inject protected transient Viewpoint reader;

    /** Asking the holder to hand over, and answering such requests. */
    private final HandoverPanel handover = new HandoverPanel();

    /** This tab: locks remember the view that took them. */
    private final String viewToken = UUID.randomUUID().toString();

    private Lock lock;
    private String lockStatus;
    private D current;
    private boolean found;
    private boolean refused;
    private String ownerId;

    /** The record this page shows, once found. */
    private LockKey shownKey;

    private LockKey aggregate;

    /** The take-over's reason as typed, and whether its confirmation is showing. */
    private String takeOverReason;

    private boolean confirmingTakeOver;

    /** The person's unsaved draft of this record when the page opened (editing only), or null. */
    private Drafts.Draft draft;

    /** Who was in the way when the page last looked, for "Sara has finished". */
    private String lastHolders;

    /** The record that was in the way when the page last looked, to tell how its lock ended. */
    private LockKey lastInTheWay;

    private boolean free;
    private boolean lost;

    /**
     * The lock this page lost while open: its story is told again as it goes on (who holds the
     * record now).
     */
    private Lock lostLock;

    private List<String> viewers = List.of();

    /** Opened with {@code view=true}: read-only from the start, without asking for the lock. */
    private boolean viewOnly;

    /**
     * The key this screen locks, from its view parameter; empty when the parameter is missing or
     * not an id.
     */
    protected abstract Optional<LockKey> key();

    /**
     * Loads for editing under the lock (an {@code @RequiresLock(LOAD_FOR_EDIT)} service method).
     */
    protected abstract Editing<D> open(LockRequest request);

    /** The record as it is now, for read-only display. */
    protected abstract Optional<D> currentValues();

    /** Copies a loaded draft into the screen's fields. */
    protected abstract void edit(D draft);

    /**
     * Saves the screen's fields under {@code held} (an {@code @RequiresLock(WRITE)} service
     * method).
     */
    protected abstract void write(Lock held);

    /** What the saved record is called, for the confirmation. */
    protected abstract String title();

    /** Where Save and Done go. */
    protected abstract String returnOutcome();

    /**
     * The client id of the input that holds {@code field} (a draft path such as {@code
     * items[2].price}).
     */
    protected String clientIdOf(String field) {
        return "edit:" + field.replaceAll("\\[(\\d+)]", ":$1").replace('.', ':');
    }

    /** Runs once when the page opens (f:viewAction). */
    public void load() {
        Optional<LockKey> key = key();
        if (key.isEmpty()) {
            notFound();
            return;
        }
        LockOwner me = owner.get();
        ownerId = me.ownerId();
        if (viewOnly) {
            current = currentValues().orElse(null);
            found = current != null;
            if (!found) {
                notFound();
            }
        } else
            try {
                Editing<D> editing = open(LockRequest.write(key.get(), me, viewToken));
                lock = editing.lock();
                current = editing.draft();
                edit(editing.draft());
                lockStatus = sentences().youAreEditing();
                found = true;
            } catch (LockUnavailableException e) {
                lockStatus = sentences().beingEdited(e.holders());
                lastHolders = LockSentences.names(e.holders());
                lastInTheWay = e.holders().get(0).key();
                current = currentValues().orElse(null);
                found = current != null;
            } catch (UnknownResourceException | LockLimitException e) {
                error(e.getMessage());
            } catch (LockStoreException e) {
                LOG.log(Level.WARNING, "Could not open a record for editing", e);
                error(reader.say("store.failed"));
            }
        if (found) {
            shownKey = key.get();
            aggregate = catalog.aggregateOf(shownKey);
            live.open(viewToken, ownerId, shownKey, aggregate);
            presence.join(shownKey, new Viewer(viewToken, ownerId, me.login(), me.displayName()));
            List<Lock> inAggregate = locks.locksIn(aggregate);
            if (viewOnly) {
                describeWhoIsInTheWay(inAggregate);
            }
            lookAtViewers(inAggregate);
            lookAtHandovers(inAggregate);
            if (lock != null) {
                draft = findDraft(me.login());
            }
        }
    }

    private Drafts.Draft findDraft(String login) {
        try {
            return drafts.find(login, shownKey).orElse(null);
        } catch (RuntimeException e) { // the page works without the offer; the draft stays kept
            LOG.log(Level.WARNING, "Could not read a draft", e);
            return null;
        }
    }

    /**
     * Looks again, when the live stream says something changed (or the tab came back): an editor
     * whose lock is gone says so at once and keeps the typed input; a read-only page shows the new
     * holder, or that the record is free, and the current values.
     */
    public void refresh() {
        SessionTimeout.background();
        if (shownKey == null) {
            return;
        }
        try {
            List<Lock> inAggregate = locks.locksIn(aggregate);
            if (lock != null) {
                Optional<LostLock> gone = locks.lost(lock);
                if (gone.isPresent()) {
                    lostLock = lock;
                    lock = null;
                    refused = true;
                    lost = true;
                    lockStatus = sentences().lost(gone.get(), title());
                    current = currentValues().orElse(current);
                }
            } else if (lostLock != null) {
                locks.lost(lostLock)
                        .ifPresent(gone -> lockStatus = sentences().lost(gone, title()));
                current = currentValues().orElse(current);
            } else if (!refused) {
                describeWhoIsInTheWay(inAggregate);
                current = currentValues().orElse(current);
            }
            lookAtViewers(inAggregate);
            lookAtHandovers(inAggregate);
        } catch (LockStoreException e) {
            LOG.log(Level.WARNING, "Could not look at the lock again", e);
        }
        if (handover.handedToThisPage() && lock == null) {
            openHandedOver();
        }
    }

    private void lookAtHandovers(List<Lock> inAggregate) {
        try {
            handover.readBy(reader).look(handovers, lock, ownerId, shownKey, inAggregate);
        } catch (RuntimeException e) { // the page works without it; the next look tries again
            LOG.log(Level.WARNING, "Could not look at the hand-over requests", e);
        }
    }

    /** The holder handed the record to this tab: the page opens it for editing by itself. */
    private void openHandedOver() {
        FacesContext faces = FacesContext.getCurrentInstance();
        var external = faces.getExternalContext();
        try {
            external.redirect(
                    external.getRequestContextPath()
                            + faces.getViewRoot().getViewId()
                            + "?id="
                            + getShownId());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** "Ask … to hand over", with the note the page sends (an {@code h:commandScript}). */
    public void askHandover() {
        if (shownKey != null) {
            handover.readBy(reader).ask(handovers, owner.get(), viewToken, shownKey);
            refresh();
        }
    }

    /** The holder's Hand over or Keep editing, with the request and reply the page sends. */
    public void answerHandover() {
        if (shownKey != null) {
            handover.readBy(reader).answer(handovers, ownerId);
            refresh();
        }
    }

    /** The asker takes their request back. */
    public void withdrawHandover() {
        if (shownKey != null) {
            handover.readBy(reader).withdraw(handovers, ownerId);
            refresh();
        }
    }

    /** The request waiting for this page's answer, as its holder reads it; empty when none. */
    public String getHandoverRequestText() {
        var first = handover.getFirst();
        if (first == null) {
            return "";
        }
        return first.note() == null
                ? reader.say("handover.request", first.askerName(), title())
                : reader.say("handover.request.note", first.askerName(), title(), first.note());
    }

    public HandoverPanel getHandover() {
        return handover.readBy(reader);
    }

    /**
     * A read-only page's sentence: who edits this record (or the whole of it), or that it is free.
     */
    private void describeWhoIsInTheWay(List<Lock> inAggregate) {
        List<Lock> inTheWay =
                inAggregate.stream()
                        .filter(
                                l ->
                                        !l.isHeldBy(ownerId)
                                                && (l.key().equals(shownKey)
                                                        || l.key().isAggregate()
                                                        || shownKey.isAggregate()))
                        .toList();
        boolean wasFree = free;
        free = inTheWay.isEmpty();
        if (free) {
            if (lockStatus == null || !wasFree) {
                LockEvent ending = lastInTheWay == null ? null : howItEnded(lastInTheWay);
                lockStatus =
                        sentences()
                                .freeNow(
                                        lastHolders,
                                        ending == null ? null : ending.type(),
                                        ending == null || ending.actor() == null
                                                ? null
                                                : directory.displayName(ending.actor()),
                                        ending == null ? null : ending.reason());
            }
        } else {
            lockStatus = sentences().beingEdited(inTheWay);
            lastHolders = LockSentences.names(inTheWay);
            lastInTheWay = inTheWay.get(0).key();
        }
    }

    private void lookAtViewers(List<Lock> held) {
        viewers =
                presence.viewers(shownKey).stream()
                        .map(
                                v -> {
                                    boolean editing =
                                            held.stream()
                                                    .anyMatch(
                                                            l ->
                                                                    l.isHeldBy(v.ownerId())
                                                                            && (l.key()
                                                                                            .equals(
                                                                                                    shownKey)
                                                                                    || l.key()
                                                                                            .isAggregate()));
                                    boolean me = v.ownerId().equals(ownerId);
                                    return v.displayName()
                                            + (me ? reader.say("viewers.you") : "")
                                            + (editing ? reader.say("viewers.editing") : "");
                                })
                        .toList();
    }

    public String save() {
        if (lock == null) {
            error(reader.say("save.notEditing"));
            return null;
        }
        Lock saving = lock;
        try {
            visits.saveAndRelease(
                    saving, viewToken, owner.get().login(), shownKey, () -> write(saving));
        } catch (LockNotHeldException | ConcurrentModificationException e) {
            lock = null;
            refused = true;
            lockStatus =
                    e instanceof LockNotHeldException held && held.lost().isPresent()
                            ? sentences().refusedSave(held.lost().get(), title())
                            : e.getMessage();
            current = currentValues().orElse(current);
            error(lockStatus + " " + reader.say("save.typedStays"));
            return null;
        } catch (InvalidDraftException e) {
            FacesContext faces = FacesContext.getCurrentInstance();
            for (InvalidDraftException.Problem p : e.problems()) {
                faces.addMessage(
                        clientIdOf(p.field()),
                        new FacesMessage(FacesMessage.SEVERITY_ERROR, p.message(), null));
            }
            error(e.getMessage());
            return null;
        } catch (RuntimeException e) {
            if (!LockStoreException.isDatabaseFailure(e)) {
                throw e;
            }
            LOG.log(Level.WARNING, "Could not save under a lock", e);
            error(reader.say("store.failed") + " " + reader.say("save.typedStays"));
            return null;
        }
        lock = null; // saved, released and its draft gone, all in one transaction
        info(reader.say("save.done", title()));
        return returnOutcome() + "?faces-redirect=true";
    }

    /** Whether this person may take the record from its holder here (and someone holds it). */
    public boolean isMayTakeOver() {
        return found
                && lock == null
                && !refused
                && !free
                && shownKey != null
                && owner.mayTakeOver();
    }

    /** First step: a reason is required, then the confirmation shows. */
    public void askTakeOver() {
        if (takeOverReason == null || takeOverReason.isBlank()) {
            FacesContext.getCurrentInstance()
                    .addMessage(
                            "takeOver:reason",
                            new FacesMessage(
                                    FacesMessage.SEVERITY_ERROR,
                                    reader.say("takeOver.reason.required"),
                                    null));
            return;
        }
        confirmingTakeOver = true;
    }

    public void cancelTakeOver() {
        confirmingTakeOver = false;
    }

    /**
     * Takes the lock from its holder in one step (nobody can get in between) and opens the record
     * for editing here. The holder's page is told at once who took it and why; what they typed
     * stays on their page and is kept as their draft.
     */
    public String takeOver() {
        if (!isMayTakeOver()) {
            error(reader.say("takeOver.notAllowed"));
            return null;
        }
        LockOwner me = owner.get();
        try {
            locks.takeOver(shownKey, me, viewToken, me.login(), takeOverReason);
        } catch (IllegalArgumentException e) {
            confirmingTakeOver = false;
            error(e.getMessage());
            return null;
        } catch (LockUnavailableException e) {
            confirmingTakeOver = false;
            error(reader.say("takeOver.parts", LockSentences.names(e.holders())));
            return null;
        } catch (LockStoreException e) {
            LOG.log(Level.WARNING, "Could not take over a lock", e);
            error(reader.say("store.failed"));
            return null;
        }
        info(reader.say("takeOver.done", title()));
        String viewId = FacesContext.getCurrentInstance().getViewRoot().getViewId();
        return viewId + "?faces-redirect=true&id=" + getShownId();
    }

    public String getTakeOverReason() {
        return takeOverReason;
    }

    public void setTakeOverReason(String takeOverReason) {
        this.takeOverReason = takeOverReason;
    }

    public boolean isConfirmingTakeOver() {
        return confirmingTakeOver;
    }

    /** Who holds the record now, as the confirmation names them. */
    public String getHolderNames() {
        return lastHolders == null ? reader.say("takeOver.holder") : lastHolders;
    }

    public String done() {
        release();
        info(reader.say("edit.left", title()));
        return returnOutcome() + "?faces-redirect=true";
    }

    /**
     * The view is gone (Faces evicted it, or it was left for another view): its locks go with it.
     * When the session ends, Faces destroys its views outside any request, before the session's
     * {@code LockRemover} runs; that one releases everything and records the true cause, so the
     * view leaves it alone.
     */
    @PreDestroy
    void viewDestroyed() {
        if (live != null) {
            live.forget(viewToken);
        }
        if (lock != null && locks != null && FacesContext.getCurrentInstance() != null) {
            try {
                locks.releaseView(ownerId, viewToken);
            } catch (RuntimeException e) {
                LOG.log(
                        Level.FINE,
                        "Could not release the locks of a destroyed view; the lease will.",
                        e);
            }
        }
    }

    private void release() {
        if (lock != null) {
            locks.release(
                    lock.key(),
                    lock.ownerId(),
                    viewToken); // a newer tab that took it over keeps it
            lock = null;
        }
    }

    /**
     * The page says so, and answers 404: a bookmark or a link to a deleted record is not a success.
     */
    private void notFound() {
        error(reader.say("record.notFound"));
        FacesContext.getCurrentInstance().getExternalContext().setResponseStatus(404);
    }

    protected static void error(String message) {
        FacesContext.getCurrentInstance()
                .addMessage(null, new FacesMessage(FacesMessage.SEVERITY_ERROR, message, null));
    }

    private static void info(String message) {
        FacesContext faces = FacesContext.getCurrentInstance();
        faces.getExternalContext().getFlash().setKeepMessages(true);
        faces.addMessage(null, new FacesMessage(FacesMessage.SEVERITY_INFO, message, null));
    }

    /** Parses a view parameter as a positive id. */
    protected static Optional<Long> id(String text) {
        try {
            long id = Long.parseLong(text == null ? "" : text.trim());
            return id > 0 ? Optional.of(id) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    public boolean isViewOnly() {
        return viewOnly;
    }

    public void setViewOnly(boolean viewOnly) {
        this.viewOnly = viewOnly;
    }

    public boolean isEditing() {
        return lock != null;
    }

    /**
     * Whether the form is shown: while editing, and after a refused save (to keep what was typed).
     */
    public boolean isFormShown() {
        return lock != null || refused;
    }

    /** The id of the record this page shows (for "Edit now"). */
    public long getShownId() {
        return shownKey == null ? 0 : shownKey.id();
    }

    /** A read-only page whose record became free: it offers editing. */
    public boolean isFree() {
        return free;
    }

    /** An editing page whose lock was taken away while it was open. */
    public boolean isLost() {
        return lost;
    }

    /** Who is looking at this record (each person once), marking who is editing. */
    public List<String> getViewers() {
        return viewers;
    }

    public boolean isRefused() {
        return refused;
    }

    public boolean isFound() {
        return found;
    }

    public String getLockStatus() {
        return lockStatus;
    }

    public D getCurrent() {
        return current;
    }

    public int getHeartbeatMillis() {
        return settings.heartbeatSeconds() * 1000;
    }

    public long getIdleMillis() {
        return settings.idleTimeoutSeconds() * 1000L;
    }

    /** This tab's token: the page's heartbeat renews only the locks this tab took. */
    public String getViewToken() {
        return viewToken;
    }

    /** Where the page keeps its draft as the person types ({@code /api/drafts/{key}}). */
    public String getDraftKey() {
        return shownKey == null ? "" : shownKey.toString();
    }

    /** The kept draft's fields (JSON) when the page opened, or empty. */
    public String getDraftFields() {
        return draft == null ? "" : draft.fields();
    }

    /** The values the page showed when that draft began (JSON), or empty. */
    public String getDraftBase() {
        return draft == null ? "" : draft.base();
    }

    /** When the kept draft was last saved, as the page says it. */
    public String getDraftTime() {
        return draft == null ? "" : reader.clock(draft.savedAt());
    }

    /** The page's sentences, in the reader's language and zone. */
    protected LockSentences sentences() {
        return new LockSentences(reader);
    }

    /**
     * How the lock on {@code key} last ended (the newest line of its history that ends a lock), to
     * say why the record is free; {@code null} when the history does not tell.
     */
    private LockEvent howItEnded(LockKey key) {
        try {
            return locks.lastEnding(key).orElse(null);
        } catch (RuntimeException e) { // the sentence then names no cause
            LOG.log(Level.FINE, "Could not read how a lock ended", e);
            return null;
        }
    }
}
