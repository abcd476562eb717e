package com.editlock.web;

import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.ExternalContext;
import jakarta.faces.context.FacesContext;
import jakarta.faces.event.PhaseEvent;
import jakarta.faces.event.PhaseId;
import jakarta.faces.event.PhaseListener;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A confirmation that outlives the redirect after Save, Done or a take-over ("Saved …", "You are no
 * longer editing …") on whichever node the redirected request lands.
 *
 * <p>Faces' flash carried it before, and it keeps its messages in a map of the node: with the data
 * grid, a page asked of another node than the one that answered the Save (a rolling restart took
 * that one out in between) came without its confirmation, and a user who saved was not told so
 * (seen in the restart torture). Here the confirmation is kept in the HTTP session, which the grid
 * carries to every node, under a random id the redirect names ({@code ?notice=…}); the page that id
 * reaches shows it once, among the page's messages, and removes it. The id, not the session alone,
 * picks it, so a second tab of the same session that opens a page meanwhile does not take another
 * tab's confirmation. A session keeps at most {@link #KEPT} that no page has shown yet (the oldest
 * go first); an id that is malformed, unknown or another session's shows nothing.
 */
public final class Notices implements PhaseListener {

    private static final long serialVersionUID = 1L;

    /** The session attribute: confirmations not shown yet, by id, oldest first. */
    static final String SESSION_KEY = Notices.class.getName();

    /** The request parameter that names the confirmation to show. */
    static final String PARAMETER = "notice";

    /** How many confirmations a session keeps that no page has shown yet. */
    static final int KEPT = 8;

    private static final Pattern ID = Pattern.compile("[0-9a-f]{32}");
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * Keeps {@code message} for the page the current request redirects to; returns the query part
     * that names it ({@code &notice=…}), to be added to the redirect's outcome.
     */
    static String keep(String message) {
        ExternalContext external = FacesContext.getCurrentInstance().getExternalContext();
        byte[] random = new byte[16];
        RANDOM.nextBytes(random);
        String id = HexFormat.of().formatHex(random);
        synchronized (external.getSession(true)) { // two tabs of the session saving at once
            keep(external.getSessionMap(), id, message);
        }
        return "&" + PARAMETER + "=" + id;
    }

    /**
     * Files {@code message} under {@code id} in {@code session}: always as a new value, so that the
     * grid, which writes what is set, writes it.
     */
    static void keep(Map<String, Object> session, String id, String message) {
        LinkedHashMap<String, String> kept = copy(session.get(SESSION_KEY));
        kept.put(id, message);
        while (kept.size() > KEPT) {
            kept.remove(kept.keySet().iterator().next());
        }
        session.put(SESSION_KEY, kept);
    }

    /** Takes the message filed under {@code id} out of {@code session}, if it is there. */
    static Optional<String> take(Map<String, Object> session, String id) {
        if (id == null || !ID.matcher(id).matches()) {
            return Optional.empty();
        }
        LinkedHashMap<String, String> kept = copy(session.get(SESSION_KEY));
        String message = kept.remove(id);
        if (message == null) {
            return Optional.empty();
        }
        if (kept.isEmpty()) {
            session.remove(SESSION_KEY);
        } else {
            session.put(SESSION_KEY, kept);
        }
        return Optional.of(message);
    }

    private static LinkedHashMap<String, String> copy(Object kept) {
        LinkedHashMap<String, String> copy = new LinkedHashMap<>();
        if (kept instanceof Map<?, ?> map) {
            map.forEach(
                    (k, v) -> {
                        if (k instanceof String id && v instanceof String message) {
                            copy.put(id, message);
                        }
                    });
        }
        return copy;
    }

    /** Before a page is rendered: the confirmation its address names joins its messages. */
    @Override
    public void beforePhase(PhaseEvent event) {
        FacesContext faces = event.getFacesContext();
        ExternalContext external = faces.getExternalContext();
        String id = external.getRequestParameterMap().get(PARAMETER);
        Object session = id == null ? null : external.getSession(false);
        if (session == null) {
            return; // nothing named, or no session to keep it: none is made for it
        }
        Optional<String> message;
        synchronized (session) {
            message = take(external.getSessionMap(), id);
        }
        message.ifPresent(
                text ->
                        faces.addMessage(
                                null, new FacesMessage(FacesMessage.SEVERITY_INFO, text, null)));
    }

    @Override
    public void afterPhase(PhaseEvent event) {
        // nothing after the rendering
    }

    @Override
    public PhaseId getPhaseId() {
        return PhaseId.RENDER_RESPONSE;
    }
}
