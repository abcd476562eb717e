package com.editlock.errors;

import jakarta.faces.application.ViewExpiredException;
import jakarta.faces.context.ExceptionHandler;
import jakarta.faces.context.ExceptionHandlerFactory;
import jakarta.faces.context.ExceptionHandlerWrapper;
import jakarta.faces.context.FacesContext;
import jakarta.faces.event.ExceptionQueuedEvent;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;

/**
 * A page posted with a view state this node cannot restore — the session ended, the state was never
 * ours, or it claims the page is stateless when it is not — is answered inside Faces: the same
 * {@code 400} "This page has expired" (with what was typed) the error page gives, but without the
 * exception leaving Faces, so neither Faces nor the container logs a stack trace for what is a
 * client's stale or forged form (a script posting many would otherwise fill the log). Every other
 * exception goes on as before.
 */
public class ExpiredViews extends ExceptionHandlerFactory {

    public ExpiredViews(ExceptionHandlerFactory wrapped) {
        super(wrapped);
    }

    @Override
    public ExceptionHandler getExceptionHandler() {
        return new Handler(getWrapped().getExceptionHandler());
    }

    /** The handler of one request. */
    static final class Handler extends ExceptionHandlerWrapper {

        Handler(ExceptionHandler wrapped) {
            super(wrapped);
        }

        @Override
        public void handle() {
            Iterator<ExceptionQueuedEvent> events = getUnhandledExceptionQueuedEvents().iterator();
            while (events.hasNext()) {
                ExceptionQueuedEvent event = events.next();
                if (!expired(event.getContext().getException())) {
                    continue;
                }
                events.remove();
                FacesContext faces = event.getContext().getContext();
                if (faces == null) {
                    faces = FacesContext.getCurrentInstance();
                }
                if (!faces.getResponseComplete()) {
                    try {
                        ErrorPage.expired(
                                (HttpServletRequest) faces.getExternalContext().getRequest(),
                                (HttpServletResponse) faces.getExternalContext().getResponse());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    faces.responseComplete();
                }
            }
            getWrapped().handle();
        }
    }

    /** A view expired, or one that claims to be stateless and is not ("Unable to restore view"). */
    static boolean expired(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ViewExpiredException || ErrorPage.unrestorable(t)) {
                return true;
            }
        }
        return false;
    }
}
