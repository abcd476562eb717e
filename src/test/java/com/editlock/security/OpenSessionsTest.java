package com.editlock.security;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpSession;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The sessions the timeout looks at are the objects the container serves them with now. The bug
 * these tests were written against: a set of every object ever seen kept the copy the container had
 * dropped when it loaded a newer one from the grid, and the timeout's look at that copy made the
 * container end it — and free the locks of an editor at work (seen in {@code GridIT}).
 */
class OpenSessionsTest {

    private final OpenSessions open = new OpenSessions();

    @Test
    void aCopyLoadedAgainReplacesTheDroppedOneWhichIsNeverLookedAtAgain() {
        HttpSession dropped = session("s1");
        HttpSession loadedAgain = session("s1");
        HttpSession other = session("s2");
        open.serving(dropped);
        open.serving(other);
        open.serving(loadedAgain);

        assertThat(open.current()).containsExactlyInAnyOrder(loadedAgain, other);

        open.ended(dropped); // (a dropped copy that ends anyway leaves the current one alone)
        assertThat(open.current()).containsExactlyInAnyOrder(loadedAgain, other);
    }

    @Test
    void aSessionWhoseIdChangedAtLoginIsLookedAtOnceUnderItsNewId() {
        AtomicReference<String> id = new AtomicReference<>("before-login");
        HttpSession session = session(id);
        open.serving(session);
        id.set("after-login");
        open.renamed(session, "before-login");

        assertThat(open.current()).containsExactly(session);
        open.serving(session);
        assertThat(open.current()).containsExactly(session);
    }

    @Test
    void anEntryUnderAnIdTheSessionNoLongerHasIsDropped() {
        AtomicReference<String> id = new AtomicReference<>("before-login");
        HttpSession session = session(id);
        open.serving(session);
        id.set("after-login"); // no rename heard

        assertThat(open.current()).isEmpty();
        open.serving(session); // its next request
        assertThat(open.current()).containsExactly(session);
    }

    @Test
    void anEndedSessionIsNotLookedAtAgain() {
        HttpSession session = session("s1");
        open.serving(session);
        open.ended(session);

        assertThat(open.current()).isEmpty();
    }

    private static HttpSession session(String id) {
        return session(new AtomicReference<>(id));
    }

    /** A session object that answers its id only; any other call fails the test. */
    private static HttpSession session(AtomicReference<String> id) {
        return (HttpSession)
                Proxy.newProxyInstance(
                        OpenSessionsTest.class.getClassLoader(),
                        new Class<?>[] {HttpSession.class},
                        (proxy, method, args) ->
                                switch (method.getName()) {
                                    case "getId" -> id.get();
                                    case "hashCode" -> System.identityHashCode(proxy);
                                    case "equals" -> proxy == args[0];
                                    case "toString" -> "session " + id.get();
                                    default ->
                                            throw new AssertionError(
                                                    "a dropped copy was looked at: "
                                                            + method.getName());
                                });
    }
}
