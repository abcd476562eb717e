package com.editlock.configurator;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

class DraftRulesTest {

    private static ConfiguratorDraft draft(
            String name, List<ItemDraft> items, List<VariableDraft> variables) {
        return new ConfiguratorDraft(1, name, "", ConfiguratorStatus.DRAFT, items, variables, 1);
    }

    private static final ItemDraft FRAME = new ItemDraft(1L, "Frame", new BigDecimal("10.50"));
    private static final VariableDraft SIZE = new VariableDraft(1L, "size", VariableType.TEXT, "M");

    @Test
    void aSoundDraftPasses() {
        assertThatCode(() -> DraftRules.check(draft("Bike", List.of(FRAME), List.of(SIZE))))
                .doesNotThrowAnyException();
        assertThatCode(
                        () ->
                                DraftRules.check(
                                        new FiltersDraft(
                                                1, "Frame", 1, "Bike", List.of("size > 1"))))
                .doesNotThrowAnyException();
    }

    @Test
    void everyBrokenRuleIsReportedWithTheFieldItBelongsTo() {
        var draft =
                draft(
                        " ",
                        List.of(FRAME, new ItemDraft(null, "Wheel", new BigDecimal("-1"))),
                        List.of(SIZE, new VariableDraft(null, "Size", VariableType.NUMBER, "big")));
        assertThatThrownBy(() -> DraftRules.check(draft))
                .isInstanceOf(InvalidDraftException.class)
                .extracting(
                        e -> ((InvalidDraftException) e).problems(),
                        InstanceOfAssertFactories.list(InvalidDraftException.Problem.class))
                .extracting(InvalidDraftException.Problem::field)
                .containsExactly(
                        "name", "items[1].price", "variables[1].name", "variables[1].value");
    }

    @Test
    void textsHaveLimits() {
        var longDescription =
                new ConfiguratorDraft(
                        1,
                        "Bike",
                        "x".repeat(2001),
                        ConfiguratorStatus.DRAFT,
                        List.of(),
                        List.of(),
                        1);
        assertThatThrownBy(() -> DraftRules.check(longDescription))
                .hasMessageContaining("at most 2000 characters");
        assertThatThrownBy(
                        () ->
                                DraftRules.check(
                                        new FiltersDraft(1, "F", 1, "B", List.of("ok", " "))))
                .hasMessageContaining("A filter rule is required");
        assertThatThrownBy(
                        () ->
                                DraftRules.check(
                                        draft(
                                                "Bike",
                                                List.of(
                                                        new ItemDraft(
                                                                null,
                                                                "Big",
                                                                new BigDecimal("12345678901.00"))),
                                                List.of())))
                .hasMessageContaining("at most 10 digits");
    }
}
