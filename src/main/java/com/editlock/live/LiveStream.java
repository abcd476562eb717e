package com.editlock.live;

import com.editlock.errors.ErrorAnswers;
import com.editlock.platform.Settings;
import com.editlock.security.ClientAddress;
import jakarta.inject.Inject;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code GET /live?tabs=…}: the event stream ({@code text/event-stream}) that carries the news of
 * the named tabs' pages and tells this node the tabs are still there. A browser's tabs share one
 * stream (the page's shared worker opens it; a browser without shared workers opens one per tab),
 * so a dozen tabs on plain HTTP/1.1 hold one of the browser's six connections per host, not twelve.
 *
 * <p>This request thread only starts the asynchronous response, sets its headers and hands it to
 * {@link LivePages}; every write and the completion happen on the application's writer thread
 * ({@link LiveStreams}). The stream has no time-out: it ends when a write fails, when none of its
 * tabs is a page any more, or when the application stops. It never touches the HTTP session: the
 * tabs are matched against the session cookie they were opened with, so an open stream does not
 * keep an idle session alive. A request that names no tab of its session is answered {@code
 * unknown} for each and ended at once: only a session's open pages can hold a stream open, and one
 * session at most {@link LiveStreams#MAX_STREAMS_PER_SESSION} (its oldest is ended). The request
 * guard refuses a stream asked for by another site's page ({@code Origin}).
 */
@WebServlet(urlPatterns = "/live", asyncSupported = true)
public class LiveStream extends HttpServlet {

    private static final long serialVersionUID = 1L;

    /** More tabs than one browser's stream may carry; the page's worker never asks for more. */
    static final int MAX_TABS = 64;

    private static final Pattern TOKEN =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    @Inject transient LivePages live;

    @Inject transient Settings settings;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        String named = request.getParameter("tabs");
        List<String> tabs =
                named == null || named.isEmpty() ? List.of() : Arrays.asList(named.split(",", -1));
        if (tabs.isEmpty()
                || tabs.size() > MAX_TABS
                || !tabs.stream().allMatch(t -> TOKEN.matcher(t).matches())) {
            ErrorAnswers.send(
                    request,
                    response,
                    HttpServletResponse.SC_BAD_REQUEST,
                    "Name 1 to "
                            + MAX_TABS
                            + " tabs by their page's token: /live?tabs=<token>,<token>.");
            return;
        }
        String session = request.getRequestedSessionId();
        List<String> asked = tabs.stream().distinct().toList();
        List<String> mine = live.carried(session == null ? "" : session, asked);
        streamHeaders(response);
        if (mine.isEmpty()) { // nothing to carry: say so and end, so that no stranger can hold a
            // stream open
            StringBuilder answer =
                    new StringBuilder("retry: ").append(LiveStreams.RETRY_MILLIS).append("\n\n");
            asked.forEach(
                    tab ->
                            answer.append("data: {\"tab\":\"")
                                    .append(tab)
                                    .append("\",\"type\":\"unknown\"}\n\n"));
            response.setHeader("Connection", "close"); // and the connection goes too
            response.getWriter().write(answer.toString());
            return;
        }
        AsyncContext async = request.startAsync();
        async.setTimeout(0);
        live.connect(
                new Sink(async),
                session,
                ClientAddress.of(request, settings.trustedProxies()),
                asked,
                mine);
    }

    /**
     * A stream's headers and nothing more, at once: a {@code HEAD} opens no stream and keeps no tab
     * counted open (the servlet's default would run {@link #doGet} and hold the answer open).
     */
    @Override
    protected void doHead(HttpServletRequest request, HttpServletResponse response) {
        streamHeaders(response);
    }

    private static void streamHeaders(HttpServletResponse response) {
        response.setContentType("text/event-stream");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Accel-Buffering", "no"); // a proxy must pass each message on at once
    }

    /**
     * The container's side of a stream; used by the writer thread only, or by the stream's held
     * write while it is under way.
     */
    private static final class Sink implements LiveStreams.Sink {
        private final AsyncContext async;
        private ServletOutputStream out;

        Sink(AsyncContext async) {
            this.async = async;
        }

        /**
         * Writes and sends {@code text}. A send the connection refuses (the client's reset came
         * back after an earlier write) fails inside the first flush, where the container only
         * closes the connection; the second flush, with nothing to send, finds it closed and
         * throws. So the write that failed says so itself, not the next one a keep-alive later.
         */
        @Override
        public void write(String text) throws IOException {
            out().write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
            out.flush();
        }

        /**
         * Asked before each write: without a write listener Payara answers from the connection's
         * queue each time (a listener's calls come on the container's threads, also after the
         * stream was completed: docs/live-channel.md).
         */
        @Override
        public boolean ready() {
            try {
                return out().isReady();
            } catch (IOException e) {
                return false; // no stream to write to: the write that follows says so
            }
        }

        private ServletOutputStream out() throws IOException {
            if (out == null) {
                out = async.getResponse().getOutputStream();
            }
            return out;
        }

        @Override
        public void end() {
            try {
                async.complete();
            } catch (IllegalStateException e) {
                // already completed by the container (it stopped): nothing left to end
            }
        }
    }
}
