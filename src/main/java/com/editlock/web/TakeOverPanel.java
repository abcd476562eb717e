package com.editlock.web;

import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import java.io.Serializable;

/**
 * The take-over on a read-only editing screen ({@link LockedEditor}): a reason is required first,
 * then a confirmation names the holders and repeats the reason; only the confirmation takes the
 * lock. Two steps, because a take-over ends another person's edit.
 */
public class TakeOverPanel implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Where the dialog stands. */
    enum Step {
        REASON,
        CONFIRMING
    }

    private String reason;
    private Step step = Step.REASON;

    /** The reader of the page, for its sentences (set by the page before each use). */
    private transient Viewpoint reader;

    /** The page's reader for what follows. */
    TakeOverPanel readBy(Viewpoint reader) {
        this.reader = reader;
        return this;
    }

    /** First step: with a reason, the confirmation shows; without one, the field says so. */
    public void ask() {
        if (reason == null || reason.isBlank()) {
            FacesContext.getCurrentInstance()
                    .addMessage(
                            "takeOver:reason",
                            new FacesMessage(
                                    FacesMessage.SEVERITY_ERROR,
                                    reader.say("takeOver.reason.required"),
                                    null));
            return;
        }
        step = Step.CONFIRMING;
    }

    /** Back to the reason: nothing was taken (cancelled, or the take-over was refused). */
    public void cancel() {
        step = Step.REASON;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public boolean isConfirming() {
        return step == Step.CONFIRMING;
    }
}
