package com.editlock.live;

import com.editlock.lock.LockChange;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
import com.editlock.platform.NodeStop;
import com.editlock.platform.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Every open page of this node, by its tab's token: what it shows, whether its tab is still there,
 * and the messages that tell it of changes.
 *
 * <p><b>Tabs.</b> Each page keeps a live event stream ({@link LiveStream}; the tabs of one browser
 * share one). When no stream carries a tab any more — the writer's keep-alive failed, so the client
 * is gone — and no stream brings it back within {@code locks.tab.grace.seconds} (a reload or a
 * dropped connection comes back well inside it), the locks that tab holds are released ({@code
 * VIEW_CLOSED}) and it stops being a viewer; the releases run on their own threads ({@link
 * TabReleases}), so one that waits on the database holds up no other. A polite leave ({@code
 * pagehide}) releases at once. Other tabs of the session keep theirs. {@link TabSockets} orders one
 * tab's events, so a loss racing a reconnect ends either released (the tab stayed away) or kept (it
 * came back in time), never a release of a tab that is open. A tab that comes back after its
 * release is told to look again: its page then shows what happened, with the user's input kept.
 *
 * <p><b>Who may carry a tab.</b> A stream names its tabs; each is accepted only from the session
 * that opened its page (the session cookie the stream was opened with, compared without touching
 * the session, so an open stream never counts as the user's activity). Any other token, or one this
 * node does not know (it restarted, the view ended), is answered {@code unknown} and not carried.
 *
 * <p><b>Messages.</b> Every {@link LockChange} (from any node, by any path) is told to the pages
 * that look at its aggregate and to the lists; every {@link PresenceChange} to the pages of that
 * record. The message only says "look again"; each page asks the server for its own state, so
 * nothing another user may not see travels on the stream.
 */
@ApplicationScoped
public class LivePages {

    private static final Logger LOG = Logger.getLogger(LivePages.class.getName());

    /** What one open page shows. {@code aggregate == null}: a list, which looks at everything. */
    record Page(
            String viewToken,
            String ownerId,
            String sessionId,
            LockKey key,
            LockKey aggregate,
            String person)
            implements java.io.Serializable {}

    /**
     * With the data grid: the session's open pages, kept in the session too, so that a node the
     * session moves to (a restart, a crash of the node that rendered them) can carry their streams.
     * Without it that node answered the tabs {@code unknown}, their pages stopped beating, and the
     * session timed out under an editor who was typing (seen in {@code GridIT}).
     */
    static final String SESSION_PAGES = LivePages.class.getName() + ".pages";

    /** How many pages a session keeps for another node (Faces keeps 64 views per session). */
    static final int SESSION_PAGES_KEPT = 64;

    private final Map<String, Page> pages = new ConcurrentHashMap<>();

    /** The tabs of each session that has pages here, so that its end forgets them. */
    private final Map<String, Set<String>> tabsOfSession = new ConcurrentHashMap<>();

    private TabSockets tabs;
    private TabReleases releases;
    private LiveStreams streams;
    private Thread writer;
    private Thread handOff;

    @Inject LockManager locks;

    @Inject com.editlock.lock.Handovers handovers;

    @Inject Presence presence;

    @Inject Settings settings;

    @Inject HttpServletRequest request;

    @Resource ManagedThreadFactory threads;

    @PostConstruct
    void start() {
        releases = new TabReleases(threads, settings.tabGraceMillis());
        tabs = new TabSockets(releases, this::releaseTab);
        long origin = System.nanoTime();
        streams =
                new LiveStreams(
                        gone -> gone.forEach(tabs::closed),
                        () -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - origin),
                        heldWrites());
        writer = threads.newThread(streams);
        writer.setName("editlock-live-writer");
        writer.setDaemon(true);
        writer.start();
        if (settings.grid()) {
            handOff = threads.newThread(this::handOffAtStop);
            handOff.setName("editlock-live-hand-off");
            handOff.setDaemon(true);
            handOff.start();
        }
    }

    /**
     * Where a stream's write that waits for its client runs: a virtual thread each, so a thousand
     * clients that read nothing cost a thousand parked threads, not a pool that others wait for.
     */
    private static java.util.concurrent.Executor heldWrites() {
        java.util.concurrent.ThreadFactory virtual =
                Thread.ofVirtual().name("editlock-live-held-write-", 0).factory();
        return task -> virtual.newThread(task).start();
    }

    /**
     * With the data grid, a node that is signalled to stop hands its tabs to the other nodes before
     * it undeploys, while its database connections still work (they are gone by the time the
     * application's beans are destroyed). The proxy takes the node out within a second of the
     * signal, and its pages' streams stay open; at the hand-off — the shutdown grace less the tab
     * grace and a second — every stream gets a keep-alive and its probes at once, so a client that
     * has left is noticed now; then the graces of the tabs lost so far run out as they would have
     * (a tab its user closed is released, {@code VIEW_CLOSED}, before the undeploy, not a lease
     * later), and every stream still open is ended without a grace: its page reconnects through the
     * proxy to another node, which carries its tabs from the session (a tab closed after that is
     * that node's to release). The run command sets the shutdown grace to the tab grace + 4 s.
     */
    private void handOffAtStop() {
        try {
            NodeStop.awaitSignal();
            long signalled = System.nanoTime();
            long handOffAt =
                    NodeStop.shutdownGrace()
                            .minusMillis(settings.tabGraceMillis())
                            .minusMillis(1000)
                            .toNanos();
            long wait = handOffAt - (System.nanoTime() - signalled);
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            streams.keepAliveNow(); // a client that left is noticed now, not a second later
            TimeUnit.MILLISECONDS.sleep((LiveStreams.PROBES + 1) * LiveStreams.PROBE_MILLIS + 100L);
            releases.finishing(); // a tab lost from now on is not this node's to end
            streams.stop(); // ends every stream without a grace: their pages reconnect elsewhere
            LOG.info("Stopping: the open pages' streams are handed to the other nodes");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // an undeploy without a signal
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Stopping: the open pages could not be handed on", e);
        }
    }

    /**
     * The application stops: the graces under way end first (a tab grace at most; with the grid
     * they have ended already, see {@link #handOffAtStop}), then the streams; a tab whose stream
     * this cuts is not released here — its page reconnects, at another node when there is one.
     */
    @PreDestroy
    void stop() {
        if (handOff != null) {
            handOff.interrupt();
        }
        try {
            releases.finish(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        streams.stop();
        try {
            writer.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A page opened in tab {@code viewToken} of the current request's session. */
    public void open(String viewToken, String ownerId, LockKey key, LockKey aggregate) {
        HttpSession session = request.getSession();
        Page page =
                new Page(
                        viewToken,
                        ownerId,
                        session.getId(),
                        key,
                        aggregate,
                        request.getRemoteUser());
        pages.put(viewToken, page);
        indexed(page);
        if (settings.grid()) {
            keepInSession(session, page);
        }
    }

    @SuppressWarnings("unchecked")
    private static void keepInSession(HttpSession session, Page page) {
        synchronized (session) { // two pages of one session opening at once
            LinkedHashMap<String, Page> kept =
                    session.getAttribute(SESSION_PAGES) instanceof LinkedHashMap<?, ?> m
                            ? new LinkedHashMap<>((Map<String, Page>) m)
                            : new LinkedHashMap<>();
            kept.put(page.viewToken(), page);
            while (kept.size() > SESSION_PAGES_KEPT) {
                kept.remove(kept.keySet().iterator().next()); // the oldest
            }
            session.setAttribute(SESSION_PAGES, kept); // a new value: written to the grid
        }
    }

    /** A page of this request's session that another node rendered, if the session kept it. */
    private Page fromSession(String viewToken, String sessionId) {
        try {
            HttpSession session = request.getSession(false);
            if (session != null
                    && session.getId().equals(sessionId)
                    && session.getAttribute(SESSION_PAGES) instanceof Map<?, ?> kept
                    && kept.get(viewToken) instanceof Page page) {
                return page;
            }
        } catch (IllegalStateException e) {
            // the session ended meanwhile
        }
        return null;
    }

    /**
     * The page's view ended (left for another view, evicted, session over): forget it, release
     * nothing here. A page still open (its session ended under it) is told it gets no more news,
     * and a stream left with no page to carry is ended.
     */
    public void forget(String viewToken) {
        streams.forget(viewToken);
        Page page = pages.remove(viewToken);
        if (page != null) {
            tabsOfSession.computeIfPresent(
                    page.sessionId(),
                    (session, tabs) -> {
                        tabs.remove(viewToken);
                        return tabs.isEmpty() ? null : tabs;
                    });
        }
        tabs.forget(viewToken);
        presence.leave(viewToken);
    }

    private void indexed(Page page) {
        tabsOfSession
                .computeIfAbsent(page.sessionId(), session -> ConcurrentHashMap.newKeySet())
                .add(page.viewToken());
    }

    /**
     * Session {@code sessionId} ended on this node: its pages here are forgotten (each told it gets
     * no more news) and its streams end. Faces ends the pages' views too, later or not at all; this
     * does not wait for it.
     */
    void sessionEnded(String sessionId) {
        Set<String> tabs = tabsOfSession.remove(sessionId);
        if (tabs != null) {
            List.copyOf(tabs).forEach(this::forget);
        }
    }

    /**
     * The user left the page ({@code pagehide}): release what this tab holds now, without waiting.
     */
    public void leave(String viewToken, String ownerId) {
        Page page = pages.get(viewToken);
        if (page != null
                && page.ownerId().equals(ownerId)) { // another session's tab: nothing to do or tell
            tabs.left(viewToken);
        }
    }

    /**
     * Which of {@code tabs} are open pages of the session whose cookie is {@code sessionId}, in
     * their order (with the data grid, also pages another node rendered for it): what a heartbeat
     * may name.
     */
    public List<String> ownPages(String sessionId, List<String> tabs) {
        return sessionId == null ? List.of() : carried(sessionId, tabs);
    }

    /**
     * Which of {@code tabsAsked} are pages of the session whose cookie is {@code sessionId} (the
     * others are not).
     */
    List<String> carried(String sessionId, List<String> tabsAsked) {
        return tabsAsked.stream()
                .filter(
                        t -> {
                            Page page = pages.get(t);
                            if (page == null && settings.grid()) {
                                page = fromSession(t, sessionId); // rendered by another node
                                if (page != null) {
                                    if (pages.putIfAbsent(t, page) == null) {
                                        indexed(page);
                                    }
                                }
                            }
                            return page != null && page.sessionId().equals(sessionId);
                        })
                .toList();
    }

    /**
     * A client opened a stream for {@code tabsAsked}, of which {@code mine} are its session's
     * pages: carries those, answers the others {@code unknown}. Runs on the request thread; writes
     * nothing.
     */
    void connect(
            LiveStreams.Sink sink,
            String sessionId,
            String address,
            List<String> tabsAsked,
            List<String> mine) {
        // Counted open before the stream exists, so that its loss (on the writer, at any moment)
        // always comes after.
        List<String> back = mine.stream().filter(tabs::opened).toList();
        Page first = pages.get(mine.get(0));
        String person = first == null ? null : first.person(); // null: a page of an older node
        LiveStreams.Stream stream = streams.open(sink, sessionId, person, address, mine);
        back.forEach(
                tab ->
                        streams.tell(
                                stream, tab,
                                "again")); // back after its release: the page looks again
        tabsAsked.stream()
                .filter(tab -> !mine.contains(tab))
                .forEach(tab -> streams.tell(stream, tab, "unknown"));
    }

    private void releaseTab(String token) {
        Page page = pages.get(token);
        if (page == null) {
            return;
        }
        try {
            List<LockKey> released = locks.releaseView(page.ownerId(), token);
            if (!released.isEmpty()) {
                LOG.fine(() -> "Tab closed: released " + released);
            }
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "A closed tab's locks could not be released now; their lease will end them.",
                    e);
        }
        try { // a closed tab cannot receive a lock: what it asked for is withdrawn
            handovers.withdrawFromView(page.ownerId(), token);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "A closed tab's requests could not be withdrawn now.", e);
        }
        presence.leave(token);
    }

    void lockChanged(@Observes LockChange change) {
        if (change.type() == LockEventType.DENIED) {
            return;
        }
        pages.values().stream()
                .filter(p -> p.aggregate() == null || p.aggregate().equals(change.aggregate()))
                .forEach(p -> streams.tell(p.viewToken(), "lock"));
    }

    void presenceChanged(@Observes PresenceChange change) {
        pages.values().stream()
                .filter(p -> change.key().equals(p.key()))
                .forEach(p -> streams.tell(p.viewToken(), "presence"));
    }
}
