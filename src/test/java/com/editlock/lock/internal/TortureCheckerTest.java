package com.editlock.lock.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockOwner;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The checker's rule for locks a screen left (Done, Save): the page says "no longer editing" whether it released the
 * lock or an admin or the lease ended it a moment before, so the lock must have ended by the end of the call — not
 * necessarily by it. A client told it released a lock (the API's {@code 204}) is still held to the strict rule.
 */
class TortureCheckerTest {

    private static final AtomicLong NEXT_AGGREGATE = new AtomicLong(700_000);

    private final LockStore store = LockStore.shared();
    private final JdbcLockManager locks = store.manager(Duration.ofSeconds(60));
    private final LockKey key = LockKey.configurator(NEXT_AGGREGATE.incrementAndGet());
    private final LockOwner sara = new LockOwner(UUID.randomUUID().toString(), "sara", "Sara");
    private final long mark = store.number("select coalesce(max(id), 0) from lock_event");
    private final TortureChecker.Observations seen = new TortureChecker.Observations();

    private Lock granted() {
        Lock lock = store.asDeclared("acquire", () -> locks.acquire(key, LockMode.WRITE, sara, "tab-1"));
        seen.granted(lock);
        return lock;
    }

    private List<String> violations() throws Exception {
        try (Connection c = store.separateConnection()) {
            return new TortureChecker(seen, List.of(key), Duration.ofSeconds(60), mark).check(c).violations();
        }
    }

    @Test
    void aLockAScreenLeftAfterAnAdminReleasedItIsFineButAReleaseTheClientWasToldOfIsNot() throws Exception {
        long token = granted().fencingToken();
        store.inTransaction(() -> locks.forceRelease(key, "ada", "Sara is on holiday"));
        Instant before = Instant.now();
        assertThat(store.inTransaction(() -> locks.release(key, sara.ownerId(), "tab-1"))).isFalse();
        seen.left(token, before, before.plusSeconds(1));

        assertThat(violations()).isEmpty();

        seen.released(token, before, before.plusSeconds(1));
        assertThat(violations()).singleElement().asString()
                .contains("the client was told it released it, the history says FORCE_RELEASED");
    }

    @Test
    void aLockAScreenLeftThatLivedOnAfterTheCallIsAViolation() throws Exception {
        long token = granted().fencingToken();
        Instant past = Instant.now().minusSeconds(10);
        seen.left(token, past, past.plusSeconds(5));

        assertThat(violations()).singleElement().asString().contains("the history has no end for it");

        assertThat(store.inTransaction(() -> locks.release(key, sara.ownerId(), "tab-1"))).isTrue();
        assertThat(violations()).singleElement().asString().contains("the history ends it later (RELEASED");
    }
}
