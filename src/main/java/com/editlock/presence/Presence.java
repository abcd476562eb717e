package com.editlock.presence;

import com.editlock.lock.LockKey;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Who is looking at which record, on this node: a page joins when it opens and leaves when its tab closes (after the
 * same grace as its locks), when its view ends, or when its session ends. Presence only reads; nothing here can
 * refuse or delay an edit, and a failure to announce a change is logged and forgotten.
 */
@ApplicationScoped
public class Presence {

    private static final Logger LOG = Logger.getLogger(Presence.class.getName());

    private final Map<LockKey, Map<String, Viewer>> byKey = new ConcurrentHashMap<>();
    private final Map<String, LockKey> keyOfView = new ConcurrentHashMap<>();

    @Inject
    Event<PresenceChange> changes;

    /** The page of tab {@code viewer} now looks at {@code key}. */
    public void join(LockKey key, Viewer viewer) {
        LockKey before = keyOfView.put(viewer.viewToken(), key);
        if (before != null && !before.equals(key)) {
            remove(before, viewer.viewToken());
        }
        byKey.computeIfAbsent(key, k -> new ConcurrentHashMap<>()).put(viewer.viewToken(), viewer);
        announce(key);
    }

    /** The page of tab {@code viewToken} is gone. */
    public void leave(String viewToken) {
        LockKey key = keyOfView.remove(viewToken);
        if (key != null) {
            remove(key, viewToken);
            announce(key);
        }
    }

    /** Everyone looking at {@code key}, one entry per person (several tabs of one person count once), by name. */
    public List<Viewer> viewers(LockKey key) {
        Map<String, Viewer> perPerson = new LinkedHashMap<>();
        byKey.getOrDefault(key, Map.of()).values().stream()
                .sorted(Comparator.comparing(Viewer::displayName).thenComparing(Viewer::userLogin))
                .forEach(v -> perPerson.putIfAbsent(v.userLogin(), v));
        return new ArrayList<>(perPerson.values());
    }

    private void remove(LockKey key, String viewToken) {
        byKey.computeIfPresent(key, (k, viewers) -> {
            viewers.remove(viewToken);
            return viewers.isEmpty() ? null : viewers;
        });
    }

    private void announce(LockKey key) {
        try {
            changes.fire(new PresenceChange(key));
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Could not announce who is viewing " + key, e);
        }
    }
}
