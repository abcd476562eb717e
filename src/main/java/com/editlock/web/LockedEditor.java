package com.editlock.web;

import com.editlock.configurator.ConcurrentModificationException;
import com.editlock.configurator.EditVisits;
import com.editlock.configurator.Editing;
import com.editlock.configurator.InvalidDraftException;
import com.editlock.lock.Handovers;
import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockLimitException;
import com.editlock.lock.LockNotHeldException;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LockRequest;
import com.editlock.lock.LockStoreException;
import com.editlock.lock.LockUnavailableException;
import com.editlock.lock.UnknownResourceException;
import com.editlock.platform.Settings;
import com.editlock.security.CurrentOwner;
import com.editlock.security.SessionTimeout;
import jakarta.annotation.PreDestroy;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Inject;
import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What every editing screen shows of its lock. Opening takes the lock before loading; when it is
 * taken the screen is read-only and says by whom. Opened with {@code view=true} the screen is
 * read-only from the start and asks for no lock (nor audits a refusal): it shows the current
 * values, who is editing, and "Edit now" while nobody is. Save writes under the lock's fencing
 * token and releases it; Done releases it. When a save is refused (the lock was lost, or a field is
 * invalid) the screen keeps what the user typed and, for a lost lock, shows the current values
 * beside it. The view's locks also go when the view is destroyed.
 *
 * <p>The page only shows: the lock side of the visit (entering, looking, saving and releasing in
 * one transaction, taking over) is {@link EditVisits}; where the page stands is one {@link
 * EditorState}; the take-over and hand-over dialogs are {@link TakeOverPanel} and {@link
 * HandoverPanel}.
 *
 * @param <D> what the screen edits (a draft record of the configurator package)
 */
public abstract class LockedEditor<D extends Serializable> implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(LockedEditor.class.getName());

    /**
     * Why the page was opened: to edit (it asks for the lock), or only to look ({@code view=true}).
     */
    enum Purpose {
        EDIT,
        VIEW
    }

    @Inject EditVisits visits;

    @Inject CurrentOwner owner;

    @Inject Settings settings;

    @Inject Handovers handovers;

    /** The reader's language and zone: every sentence and time on the page. */
    @Inject protected Viewpoint reader;

    /** Asking the holder to hand over, and answering such requests. */
    private final HandoverPanel handover = new HandoverPanel();

    /** Taking the record from its holder, with a reason and a confirmation. */
    private final TakeOverPanel takingOver = new TakeOverPanel();

    /** This tab: locks remember the view that took them. */
    private final String viewToken = UUID.randomUUID().toString();

    private Purpose purpose = Purpose.EDIT;
    private EditorState state = EditorState.NOT_FOUND;

    /** The lock this tab holds while {@link EditorState#EDITING}, else null. */
    private Lock lock;

    private final LockStatus status = new LockStatus();
    private D current;
    private String ownerId;

    /** The record this page shows, once found, and its aggregate. */
    private LockKey shownKey;

    private LockKey aggregate;

    /** The person's unsaved draft of this record when the page opened (editing only). */
    private DraftOffer draftOffer = DraftOffer.NONE;

    /**
     * The lock this page lost while open: its story is told again as it goes on (who holds the
     * record now).
     */
    private Lock lostLock;

    private List<String> viewers = List.of();

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
        if (purpose == Purpose.VIEW) {
            current = currentValues().orElse(null);
            if (current == null) {
                notFound();
                return;
            }
            state = EditorState.HELD_BY_OTHERS;
        } else if (!openForEditing(key.get(), me)) {
            return;
        }
        shownKey = key.get();
        aggregate = visits.enter(shownKey, me, viewToken);
        EditVisits.Look look = visits.look(shownKey, aggregate, ownerId);
        if (purpose == Purpose.VIEW) {
            describeWhoIsInTheWay(look);
        }
        show(look);
        if (lock != null) {
            draftOffer =
                    visits.offeredDraft(me.login(), shownKey)
                            .map(DraftOffer::new)
                            .orElse(DraftOffer.NONE);
        }
    }

    /** Asks for the lock and loads under it; false when there is nothing to show. */
    private boolean openForEditing(LockKey key, LockOwner me) {
        try {
            Editing<D> editing = open(LockRequest.write(key, me, viewToken));
            lock = editing.lock();
            current = editing.draft();
            edit(editing.draft());
            status.say(sentences().youAreEditing());
            state = EditorState.EDITING;
            return true;
        } catch (LockUnavailableException e) {
            status.heldBy(e.holders(), sentences());
            current = currentValues().orElse(null);
            state = current == null ? EditorState.NOT_FOUND : EditorState.HELD_BY_OTHERS;
            return current != null;
        } catch (UnknownResourceException | LockLimitException e) {
            Screen.error(e.getMessage());
        } catch (LockStoreException e) {
            LOG.log(Level.WARNING, "Could not open a record for editing", e);
            Screen.error(reader.say("store.failed"));
        }
        return false;
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
            EditVisits.Look look = visits.look(shownKey, aggregate, ownerId);
            if (lock != null) {
                visits.lost(lock)
                        .ifPresent(
                                gone -> {
                                    lostLock = lock;
                                    lock = null;
                                    state = EditorState.LOST;
                                    status.say(sentences().lost(gone, title()));
                                    current = currentValues().orElse(current);
                                });
            } else if (lostLock != null) {
                visits.lost(lostLock)
                        .ifPresent(gone -> status.say(sentences().lost(gone, title())));
                current = currentValues().orElse(current);
            } else if (state.reading()) {
                describeWhoIsInTheWay(look);
                current = currentValues().orElse(current);
            }
            show(look);
        } catch (LockStoreException e) {
            LOG.log(Level.WARNING, "Could not look at the lock again", e);
        }
        if (handover.handedToThisPage() && lock == null) {
            openHandedOver();
        }
    }

    /** Shows who is looking, and where the hand-over requests stand. */
    private void show(EditVisits.Look look) {
        viewers = sentences().lookers(look.lookers());
        try {
            handover.readBy(reader).look(handovers, lock, ownerId, shownKey, look.inAggregate());
        } catch (RuntimeException e) { // the page works without it; the next look tries again
            LOG.log(Level.WARNING, "Could not look at the hand-over requests", e);
        }
    }

    /** The holder handed the record to this tab: the page opens it for editing by itself. */
    private void openHandedOver() {
        Screen.redirect(
                FacesContext.getCurrentInstance().getViewRoot().getViewId()
                        + "?id="
                        + getShownId());
    }

    /** "Ask … to hand over", with the note the page sends (an {@code h:commandScript}). */
    public void askHandover() {
        handoverStep(h -> h.ask(handovers, owner.get(), viewToken, shownKey));
    }

    /** The holder's Hand over or Keep editing, with the request and reply the page sends. */
    public void answerHandover() {
        handoverStep(h -> h.answer(handovers, ownerId));
    }

    /** The asker takes their request back. */
    public void withdrawHandover() {
        handoverStep(h -> h.withdraw(handovers, ownerId));
    }

    private void handoverStep(Consumer<HandoverPanel> step) {
        if (shownKey != null) {
            step.accept(handover.readBy(reader));
            refresh();
        }
    }

    public HandoverPanel getHandover() {
        return handover.readBy(reader, title());
    }

    /**
     * A read-only page's sentence: who edits this record (or the whole of it), or that it is free.
     */
    private void describeWhoIsInTheWay(EditVisits.Look look) {
        boolean wasFree = state == EditorState.FREE;
        state = look.free() ? EditorState.FREE : EditorState.HELD_BY_OTHERS;
        status.looked(look, wasFree, sentences(), visits);
    }

    public String save() {
        if (lock == null) {
            Screen.error(reader.say("save.notEditing"));
            return null;
        }
        Lock saving = lock;
        try {
            visits.saveAndRelease(
                    saving, viewToken, owner.get().login(), shownKey, () -> write(saving));
        } catch (LockNotHeldException | ConcurrentModificationException e) {
            lock = null;
            state = EditorState.SAVE_REFUSED;
            status.say(
                    e instanceof LockNotHeldException held && held.lost().isPresent()
                            ? sentences().refusedSave(held.lost().get(), title())
                            : e.getMessage());
            current = currentValues().orElse(current);
            Screen.error(status.text() + " " + reader.say("save.typedStays"));
            return null;
        } catch (InvalidDraftException e) {
            e.problems().forEach(p -> Screen.fieldError(clientIdOf(p.field()), p.message()));
            Screen.error(e.getMessage());
            return null;
        } catch (RuntimeException e) {
            if (!LockStoreException.isDatabaseFailure(e)) {
                throw e;
            }
            LOG.log(Level.WARNING, "Could not save under a lock", e);
            Screen.error(reader.say("store.failed") + " " + reader.say("save.typedStays"));
            return null;
        }
        lock = null; // saved, released and its draft gone, all in one transaction
        state = EditorState.LEFT;
        return returnOutcome()
                + "?faces-redirect=true"
                + Screen.confirm(reader.say("save.done", title()));
    }

    /** Whether this person may take the record from its holder here (and someone holds it). */
    public boolean isMayTakeOver() {
        return state == EditorState.HELD_BY_OTHERS && shownKey != null && owner.mayTakeOver();
    }

    /** The take-over dialog. */
    public TakeOverPanel getTakingOver() {
        return takingOver.readBy(reader);
    }

    /**
     * Takes the lock from its holder in one step (nobody can get in between) and opens the record
     * for editing here. The holder's page is told at once who took it and why; what they typed
     * stays on their page and is kept as their draft.
     */
    public String takeOver() {
        if (!isMayTakeOver()) {
            Screen.error(reader.say("takeOver.notAllowed"));
            return null;
        }
        try {
            visits.takeOver(shownKey, owner.get(), viewToken, takingOver.getReason());
        } catch (IllegalArgumentException e) {
            takingOver.cancel();
            Screen.error(e.getMessage());
            return null;
        } catch (LockUnavailableException e) {
            takingOver.cancel();
            Screen.error(reader.say("takeOver.parts", LockSentences.names(e.holders())));
            return null;
        } catch (LockStoreException e) {
            LOG.log(Level.WARNING, "Could not take over a lock", e);
            Screen.error(reader.say("store.failed"));
            return null;
        }
        String viewId = FacesContext.getCurrentInstance().getViewRoot().getViewId();
        return viewId
                + "?faces-redirect=true&id="
                + getShownId()
                + Screen.confirm(reader.say("takeOver.done", title()));
    }

    /** Who holds the record now, as the confirmation names them. */
    public String getHolderNames() {
        return status.lastHolders() == null ? reader.say("takeOver.holder") : status.lastHolders();
    }

    public String done() {
        if (lock != null) { // a newer tab that took it over keeps it
            visits.leave(lock, viewToken);
            lock = null;
            state = EditorState.LEFT;
        }
        return returnOutcome()
                + "?faces-redirect=true"
                + Screen.confirm(reader.say("edit.left", title()));
    }

    /**
     * The view is gone (Faces evicted it, or it was left for another view): its locks go with it.
     * When the session ends, Faces destroys its views outside any request, before the session's
     * {@code LockRemover} runs; that one releases everything and records the true cause, so the
     * view leaves it alone.
     */
    @PreDestroy
    void viewDestroyed() {
        if (visits != null) {
            visits.forget(
                    viewToken, ownerId, lock != null && FacesContext.getCurrentInstance() != null);
        }
    }

    private void notFound() {
        state = EditorState.NOT_FOUND;
        Screen.notFound(reader.say("record.notFound"));
    }

    /** The {@code view} parameter: {@code true} opens the page only to look. */
    public boolean isViewOnly() {
        return purpose == Purpose.VIEW;
    }

    public void setViewOnly(boolean viewOnly) {
        this.purpose = viewOnly ? Purpose.VIEW : Purpose.EDIT;
    }

    public boolean isEditing() {
        return state == EditorState.EDITING;
    }

    /**
     * Whether the form is shown: while editing, and after the lock went (to keep what was typed).
     */
    public boolean isFormShown() {
        return state.formShown();
    }

    /** The id of the record this page shows (for "Edit now"). */
    public long getShownId() {
        return shownKey == null ? 0 : shownKey.id();
    }

    /** A read-only page whose record became free: it offers editing. */
    public boolean isFree() {
        return state == EditorState.FREE;
    }

    /** An editing page whose lock was taken away while it was open. */
    public boolean isLost() {
        return state == EditorState.LOST;
    }

    /** Who is looking at this record (each person once), marking who is editing. */
    public List<String> getViewers() {
        return viewers;
    }

    public boolean isRefused() {
        return state.refused();
    }

    public boolean isFound() {
        return state != EditorState.NOT_FOUND;
    }

    public String getLockStatus() {
        return status.text();
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

    /** The kept draft offered when the page opened. */
    public DraftOffer getDraftOffer() {
        return draftOffer.readBy(reader);
    }

    /** The page's sentences, in the reader's language and zone. */
    protected LockSentences sentences() {
        return new LockSentences(reader);
    }
}
