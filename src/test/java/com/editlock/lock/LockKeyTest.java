package com.editlock.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class LockKeyTest {

    @Test
    void parsesTheThreeShapesAndPrintsThemBack() {
        assertThat(LockKey.parse("configurator:12")).isEqualTo(LockKey.configurator(12));
        assertThat(LockKey.parse("configurator:12:variables")).isEqualTo(LockKey.variables(12));
        assertThat(LockKey.parse(" item:88:filters ")).isEqualTo(LockKey.itemFilters(88));
        assertThat(LockKey.itemFilters(88)).hasToString("item:88:filters");
        assertThat(LockKey.configurator(12).isAggregate()).isTrue();
        assertThat(LockKey.variables(12).isAggregate()).isFalse();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(
            strings = {
                "configurator",
                "configurator:",
                "configurator:0",
                "configurator:-1",
                "configurator:01",
                "configurator:1.5",
                "configurator:abc",
                "item:5",
                "item:5:variables",
                "configurator:5:filters",
                "Configurator:1",
                "configurator:1:",
                "configurator:1 :variables",
                "configurator:9999999999999999999",
                "user:1",
                "configurator:1;drop table app_lock"
            })
    void refusesAnythingElseWithASentence(String text) {
        assertThatThrownBy(() -> LockKey.parse(text))
                .isInstanceOf(InvalidLockKeyException.class)
                .hasMessageContaining("configurator:");
    }

    @Test
    void canonicalOrderIsTheKeysTextOrder() {
        var keys =
                new TreeSet<>(
                        List.of(
                                LockKey.itemFilters(2),
                                LockKey.configurator(10),
                                LockKey.configurator(2)));
        assertThat(keys)
                .extracting(LockKey::toString)
                .containsExactly("configurator:10", "configurator:2", "item:2:filters");
    }

    @Test
    void modesParseAsTyped() {
        assertThat(LockMode.parse("write")).isEqualTo(LockMode.WRITE);
        assertThat(LockMode.parse(" READ ")).isEqualTo(LockMode.READ);
        assertThatThrownBy(() -> LockMode.parse("exclusive")).hasMessageContaining("READ or WRITE");
    }
}
