package com.editlock.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NoticesTest {

    private static final String SAVED = "a".repeat(32);
    private static final String DONE = "b".repeat(32);

    private final Map<String, Object> session = new HashMap<>();

    @Test
    void eachTabsConfirmationIsShownOnceByTheIdItsRedirectNames() {
        Notices.keep(session, SAVED, "Saved \u201cBike\u201d.");
        Notices.keep(session, DONE, "You are no longer editing \u201cCar\u201d.");

        assertThat(Notices.take(session, DONE))
                .hasValue("You are no longer editing \u201cCar\u201d.");
        assertThat(Notices.take(session, DONE)).as("shown once").isEmpty();
        assertThat(Notices.take(session, SAVED)).hasValue("Saved \u201cBike\u201d.");
        assertThat(session).as("nothing left in the session").isEmpty();
    }

    @Test
    void whatTheSessionKeepsIsANewValueEachTimeSoTheGridWritesIt() {
        Notices.keep(session, SAVED, "one");
        Object first = session.get(Notices.SESSION_KEY);
        Notices.keep(session, DONE, "two");
        assertThat(session.get(Notices.SESSION_KEY)).isNotSameAs(first);
        Object second = session.get(Notices.SESSION_KEY);
        Notices.take(session, SAVED);
        assertThat(session.get(Notices.SESSION_KEY)).isNotSameAs(second);
    }

    @Test
    void aSessionKeepsOnlyItsNewestConfirmations() {
        for (int i = 0; i < Notices.KEPT + 3; i++) {
            Notices.keep(session, String.format("%032x", i), "notice " + i);
        }
        assertThat((Map<?, ?>) session.get(Notices.SESSION_KEY)).hasSize(Notices.KEPT);
        assertThat(Notices.take(session, String.format("%032x", 2)))
                .as("among the oldest")
                .isEmpty();
        assertThat(Notices.take(session, String.format("%032x", Notices.KEPT + 2)))
                .hasValue("notice " + (Notices.KEPT + 2));
    }

    @Test
    void anIdThatIsMalformedOrUnknownShowsNothingAndChangesNothing() {
        Notices.keep(session, SAVED, "Saved.");
        Map<String, Object> before = Map.copyOf(session);
        for (String id :
                new String[] {
                    null, "", "x", SAVED.toUpperCase(), SAVED + "0", DONE, "<script>" + SAVED
                }) {
            assertThat(Notices.take(session, id)).as(String.valueOf(id)).isEmpty();
        }
        assertThat(session).isEqualTo(before);
    }

    @Test
    void somethingElseUnderItsNameInTheSessionIsIgnored() {
        session.put(Notices.SESSION_KEY, "not a map");
        assertThat(Notices.take(session, SAVED)).isEmpty();
        Notices.keep(session, SAVED, "Saved.");
        assertThat(Notices.take(session, SAVED)).hasValue("Saved.");
    }
}
