package com.editlock.web;

import com.editlock.lock.LockChange;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
import com.editlock.presence.Presence;
import com.editlock.presence.PresenceChange;
import com.editlock.platform.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.faces.event.WebsocketEvent;
import jakarta.faces.push.Push;
import jakarta.faces.push.PushContext;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Every open page of this node, by its tab's token: what it shows, whether its tab is still there, and the push that
 * tells it of changes.
 *
 * <p><b>Tabs.</b> Each page keeps a Faces WebSocket whose user is the tab's token. When a tab's last socket closes,
 * and the same tab has not reconnected within {@code locks.tab.grace.seconds} (a reload or a dropped connection comes
 * back within a fraction of a second), the locks that tab holds are released ({@code VIEW_CLOSED}) and it stops
 * being a viewer. A polite leave ({@code pagehide}) releases at once. Other tabs of the session keep theirs. The events
 * of one tab are handled in order under that tab's monitor, with a generation count, so a close racing a reconnect
 * can only end in one of two states: released (the tab stayed away) or kept (it came back in time) — never a release
 * of a tab that is open. A tab that comes back after its release is told to look again: its page then shows what
 * happened, with the user's input kept.
 *
 * <p><b>Push.</b> Every {@link LockChange} (from any node, by any path) is pushed to the pages that look at its
 * aggregate and to the lists; every {@link PresenceChange} to the pages of that record. The message only says "look
 * again"; each page asks the server for its own state, so nothing another user may not see travels over the socket.
 */
@ApplicationScoped
public class LivePages {

    static final String CHANNEL = "editlock";
    private static final Logger LOG = Logger.getLogger(LivePages.class.getName());

    /** What one open page shows. {@code aggregate == null}: a list, which looks at everything. */
    record Page(String viewToken, String ownerId, LockKey key, LockKey aggregate) {
    }

    private final Map<String, Page> pages = new ConcurrentHashMap<>();
    private TabSockets tabs;

    @Inject
    @Push(channel = CHANNEL)
    PushContext push;

    @Inject
    LockManager locks;

    @Inject
    Presence presence;

    @Inject
    Settings settings;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @PostConstruct
    void start() {
        tabs = new TabSockets(task -> {
            ScheduledFuture<?> pending = scheduler.schedule(task, settings.tabGraceSeconds(), TimeUnit.SECONDS);
            return () -> pending.cancel(false);
        }, this::releaseTab);
    }

    /** A page opened (or looked again) in tab {@code page.viewToken()}. */
    void open(Page page) {
        pages.put(page.viewToken(), page);
    }

    /** The page's view ended (left for another view, evicted, session over): forget it, release nothing here. */
    void forget(String viewToken) {
        pages.remove(viewToken);
        tabs.forget(viewToken);
        presence.leave(viewToken);
    }

    /** The user left the page ({@code pagehide}): release what this tab holds now, without waiting. */
    public void leave(String viewToken, String ownerId) {
        Page page = pages.get(viewToken);
        if (page != null && page.ownerId().equals(ownerId)) { // another session's tab: nothing to do or tell
            tabs.left(viewToken);
        }
    }

    void opened(@Observes @WebsocketEvent.Opened WebsocketEvent event) {
        if (CHANNEL.equals(event.getChannel()) && event.getUser() != null) {
            String token = event.getUser().toString();
            if (tabs.opened(token) && pages.containsKey(token)) {
                send(Map.of("type", "again"), List.of(token)); // back after its release: the page looks again
            }
        }
    }

    void closed(@Observes @WebsocketEvent.Closed WebsocketEvent event) {
        if (CHANNEL.equals(event.getChannel()) && event.getUser() != null) {
            tabs.closed(event.getUser().toString());
        }
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
            LOG.log(Level.WARNING, "A closed tab's locks could not be released now; their lease will end them.", e);
        }
        presence.leave(token);
    }

    void lockChanged(@Observes LockChange change) {
        if (change.type() == LockEventType.DENIED) {
            return;
        }
        List<String> watching = pages.values().stream()
                .filter(p -> p.aggregate() == null || p.aggregate().equals(change.aggregate()))
                .map(Page::viewToken).toList();
        send(Map.of("type", "lock", "resource", change.key().toString()), watching);
    }

    void presenceChanged(@Observes PresenceChange change) {
        List<String> watching = pages.values().stream().filter(p -> change.key().equals(p.key()))
                .map(Page::viewToken).toList();
        send(Map.of("type", "presence", "resource", change.key().toString()), watching);
    }

    private void send(Map<String, String> message, List<String> viewTokens) {
        if (viewTokens.isEmpty()) {
            return;
        }
        try {
            push.send(message, viewTokens);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Could not push to open pages", e);
        }
    }
}
