package com.editlock.errors;

import com.editlock.lock.LockStoreException;
import jakarta.faces.FacesException;
import jakarta.faces.application.ViewExpiredException;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where the container sends every error it does not leave to the application (web.xml's default
 * error page): an exception that escaped a page, a 405, a 500. The user sees Editlock's own page
 * (or JSON under {@code /api}) with a sentence, never the server's. An unexpected exception is
 * logged here with its stack trace.
 */
@WebServlet("/WEB-INF/error")
public class ErrorPage extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(ErrorPage.class.getName());

    /** Nobody can be answered: the client's connection closed (a tab cut off mid-request, say). */
    static boolean clientGone(Object failure) {
        for (Throwable t = failure instanceof Throwable f ? f : null; t != null; t = t.getCause()) {
            if (t instanceof IOException
                    && (t.getClass().getSimpleName().equals("ClientAbortException")
                            || "Connection is closed".equals(t.getMessage())
                            || "Broken pipe".equals(t.getMessage()))) {
                return true;
            }
        }
        return false;
    }

    /** Mojarra's answer to a view state that names no view it can rebuild ("stateless"). */
    static boolean unrestorable(Throwable t) {
        return t instanceof FacesException
                && t.getMessage() != null
                && t.getMessage().startsWith("Unable to restore view");
    }

    /**
     * {@code 400} "This page has expired", with what the request typed (so nothing is lost): a
     * session that ended, a view state that was never ours, or one that claims a page is stateless
     * when it is not. Faces answers it this way itself ({@link ExpiredViews}); this page does for
     * whatever reaches the container.
     */
    static void expired(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        Map<String, String> typed = TypedValues.of(request);
        ErrorAnswers.sayWithTyped(
                request,
                response,
                400,
                "error.expired.title",
                typed.isEmpty() ? "error.expired.text" : "error.expired.typed",
                typed);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer i ? i : 500;
        Object failure = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        if (clientGone(failure)) {
            // Nobody to answer.
            LOG.log(
                    Level.FINE,
                    "The client's connection closed before its answer",
                    (Throwable) failure);
            return;
        }
        for (Throwable t = failure instanceof Throwable f ? f : null; t != null; t = t.getCause()) {
            // A session that ended, a view state that was never ours, or one that claims a page
            // is stateless when it is not (Mojarra: "Unable to restore view").
            if (t instanceof ViewExpiredException || unrestorable(t)) {
                expired(request, response);
                return;
            }
        }
        if (failure instanceof Throwable t && LockStoreException.isDatabaseFailure(t)) {
            LOG.log(
                    Level.WARNING,
                    "The database failed on "
                            + request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI),
                    t);
            ErrorAnswers.say(request, response, 503, "store.failed");
            return;
        }
        if (failure instanceof Throwable t) {
            LOG.log(
                    Level.SEVERE,
                    "Unhandled failure on "
                            + request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI),
                    t);
            if (status < 400) {
                status = 500;
            }
        }
        Object asked = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        if (status == 403
                && asked instanceof String uri
                && uri.startsWith(request.getContextPath() + "/admin/")) {
            ErrorAnswers.say(request, response, 403, "error.forbidden.admin");
        } else if (ErrorAnswers.sentenceKey(status).equals("error.sentence.other")) {
            ErrorAnswers.say(request, response, status, "error.sentence.other", status);
        } else {
            ErrorAnswers.say(request, response, status, ErrorAnswers.sentenceKey(status));
        }
    }
}
