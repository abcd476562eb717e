package com.editlock.web;

import com.editlock.configurator.Drafts;
import java.io.Serializable;

/**
 * The unsaved draft an editing screen offers to restore when it opens (the page's script shows the
 * offer, and what changed since the draft began); empty when there is none.
 */
public final class DraftOffer implements Serializable {

    private static final long serialVersionUID = 1L;

    static final DraftOffer NONE = new DraftOffer(null);

    private final Drafts.Draft draft;
    private transient Viewpoint reader;

    DraftOffer(Drafts.Draft draft) {
        this.draft = draft;
    }

    DraftOffer readBy(Viewpoint reader) {
        this.reader = reader;
        return this;
    }

    /** The kept draft's fields (JSON), or empty. */
    public String getFields() {
        return draft == null ? "" : draft.fields();
    }

    /** The values the page showed when that draft began (JSON), or empty. */
    public String getBase() {
        return draft == null ? "" : draft.base();
    }

    /** When the kept draft was last saved, as the reader's clock says it. */
    public String getTime() {
        return draft == null ? "" : reader.clock(draft.savedAt());
    }
}
