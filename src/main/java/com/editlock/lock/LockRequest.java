package com.editlock.lock;

import java.util.Objects;

/**
 * What a screen asks for when it opens a record for editing: a key, a mode, the owner and the tab.
 * A method marked {@code @RequiresLock(LOAD_FOR_EDIT)} receives it back with the {@link #granted()
 * granted lock}.
 */
public final class LockRequest {

    private final LockKey key;
    private final LockMode mode;
    private final LockOwner owner;
    private final String view;
    private final Lock granted;

    private LockRequest(LockKey key, LockMode mode, LockOwner owner, String view, Lock granted) {
        this.key = Objects.requireNonNull(key, "key");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.view = view;
        this.granted = granted;
    }

    /** A WRITE lock on {@code key} for {@code owner} from tab {@code view}. */
    public static LockRequest write(LockKey key, LockOwner owner, String view) {
        return new LockRequest(key, LockMode.WRITE, owner, view, null);
    }

    /** The same request, with the lock that was granted for it. */
    public LockRequest withGrant(Lock lock) {
        if (!lock.key().equals(key) || !lock.isHeldBy(owner.ownerId())) {
            throw new IllegalArgumentException(
                    "The lock " + lock.key() + " was not granted for this request.");
        }
        return new LockRequest(key, mode, owner, view, lock);
    }

    public LockKey key() {
        return key;
    }

    public LockMode mode() {
        return mode;
    }

    public LockOwner owner() {
        return owner;
    }

    public String view() {
        return view;
    }

    /**
     * The granted lock.
     *
     * @throws IllegalStateException when the request did not pass through
     *     {@code @RequiresLock(LOAD_FOR_EDIT)}
     */
    public Lock granted() {
        if (granted == null) {
            throw new IllegalStateException(
                    "No lock was acquired for "
                            + key
                            + ": mark the loading method "
                            + "@RequiresLock(LOAD_FOR_EDIT).");
        }
        return granted;
    }
}
