package com.editlock.web;

import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/** What every screen says the same way: its messages, its 404, and its id parameters. */
final class Screen {

    private Screen() {}

    /** An error for the whole page. */
    static void error(String message) {
        FacesContext.getCurrentInstance()
                .addMessage(null, new FacesMessage(FacesMessage.SEVERITY_ERROR, message, null));
    }

    /** An error beside the input {@code clientId}. */
    static void fieldError(String clientId, String message) {
        FacesContext.getCurrentInstance()
                .addMessage(clientId, new FacesMessage(FacesMessage.SEVERITY_ERROR, message, null));
    }

    /**
     * A confirmation for the page this request redirects to, on whichever node that is asked of
     * ({@link Notices}): returns the query part ({@code &notice=…}) the redirect's outcome adds.
     */
    static String confirm(String message) {
        return Notices.keep(message);
    }

    /**
     * The page says so, and answers 404: a bookmark or a link to a deleted record is not a success.
     */
    static void notFound(String message) {
        error(message);
        FacesContext.getCurrentInstance().getExternalContext().setResponseStatus(404);
    }

    /** Sends the browser to {@code path} (under the application) at once. */
    static void redirect(String path) {
        var external = FacesContext.getCurrentInstance().getExternalContext();
        try {
            external.redirect(external.getRequestContextPath() + path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses a view parameter as a positive id. */
    static Optional<Long> id(String text) {
        try {
            long id = Long.parseLong(text == null ? "" : text.trim());
            return id > 0 ? Optional.of(id) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
