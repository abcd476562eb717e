package com.editlock.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PeopleTest {

    @Test
    void aLoginIsWhatTheLoginPageTakes() {
        assertThat(People.checkedLogin("ivy.park-2")).isEqualTo("ivy.park-2");
        for (String bad : new String[] {null, "", "Ivy", "2ivy", "ivy park", "a".repeat(65)}) {
            assertThatThrownBy(() -> People.checkedLogin(bad))
                    .isInstanceOfSatisfying(
                            People.PersonException.class,
                            e -> assertThat(e.status()).isEqualTo(400))
                    .hasMessageContaining("small letter");
        }
    }

    @Test
    void aNameIsPlainTextOthersWillSee() {
        assertThat(People.checkedName("  Ivy Park ")).isEqualTo("Ivy Park");
        for (String bad : new String[] {null, " ", "a\u0007b", "x".repeat(201)}) {
            assertThatThrownBy(() -> People.checkedName(bad))
                    .isInstanceOf(People.PersonException.class)
                    .hasMessageContaining("plain text");
        }
    }

    @Test
    void rolesAreTheThreeEditlockKnowsAndAtLeastOne() {
        assertThat(People.checkedRoles(List.of("take-over", "editor", "editor")))
                .containsExactlyInAnyOrder("editor", "take-over");
        assertThatThrownBy(() -> People.checkedRoles(List.of()))
                .hasMessageContaining("at least one");
        assertThatThrownBy(() -> People.checkedRoles(List.of("editor", "root")))
                .hasMessageContaining("no role root");
    }

    @Test
    void aReasonIsNeededToDisableSomeone() {
        assertThat(People.checkedReason(" Left ")).isEqualTo("Left");
        for (String bad : new String[] {null, "  ", "a\u0000b", "r".repeat(501)}) {
            assertThatThrownBy(() -> People.checkedReason(bad))
                    .isInstanceOf(People.PersonException.class)
                    .hasMessageContaining("Say why");
        }
    }

    @Test
    void aPasswordEditlockMakesIsLongRandomAndUnambiguous() {
        Set<String> made = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String password = People.newPassword();
            assertThat(password).hasSize(20).matches("[A-HJ-NP-Za-km-z2-9]{20}");
            made.add(password);
        }
        assertThat(made).hasSize(1000);
    }
}
