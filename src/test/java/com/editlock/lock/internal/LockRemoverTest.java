package com.editlock.lock.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.lock.LockEvent;
import com.editlock.lock.LockEventType;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LockRemover;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionBindingEvent;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The session's lock remover, on the real store: some containers deliver {@code valueUnbound}
 * twice.
 */
class LockRemoverTest {

    private final LockStore store = LockStore.shared();
    private final JdbcLockManager locks = store.manager(Duration.ofSeconds(60));

    @Test
    void anUnbindDeliveredTwiceReleasesEachLockOnceAndAuditsItOnce() {
        LockOwner omar = new LockOwner(UUID.randomUUID().toString(), "omar", "Omar");
        LockKey key = LockKey.configurator(99_001);
        store.inTransaction(() -> locks.acquire(key, LockMode.WRITE, omar, null));
        HttpSessionBindingEvent event = new HttpSessionBindingEvent(session(), "remover");
        LockRemover remover = new LockRemover(omar.ownerId());

        store.inTransaction(
                () -> {
                    remover.valueUnbound(event);
                    return null;
                });
        store.inTransaction(
                () -> {
                    remover.valueUnbound(event);
                    return null;
                });

        assertThat(locks.locksOf(omar.ownerId())).isEmpty();
        assertThat(store.administration().history(key, 10))
                .extracting(LockEvent::type)
                .containsExactly(LockEventType.SESSION_ENDED, LockEventType.ACQUIRED);
    }

    private HttpSession session() {
        ServletContext context =
                (ServletContext)
                        Proxy.newProxyInstance(
                                getClass().getClassLoader(),
                                new Class<?>[] {ServletContext.class},
                                (p, m, a) ->
                                        m.getName().equals("getAttribute")
                                                        && LockManagerPublisher.ATTRIBUTE.equals(
                                                                a[0])
                                                ? locks
                                                : null);
        return (HttpSession)
                Proxy.newProxyInstance(
                        getClass().getClassLoader(),
                        new Class<?>[] {HttpSession.class},
                        (p, m, a) -> m.getName().equals("getServletContext") ? context : null);
    }
}
