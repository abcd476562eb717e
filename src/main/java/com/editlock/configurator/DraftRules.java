package com.editlock.configurator;

import com.editlock.configurator.InvalidDraftException.Problem;
import com.editlock.platform.PlainText;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rules every save checks before it writes anything, whichever door it came through (screen or
 * API). Screens check the same limits as the user types; these are the ones that count.
 */
final class DraftRules {

    static final int NAME_MAX = 120;
    static final int DESCRIPTION_MAX = 2000;
    static final int VALUE_MAX = 500;
    static final int RULE_MAX = 500;
    static final int ROWS_MAX = 200;
    static final BigDecimal PRICE_MAX = new BigDecimal("9999999999.99");

    private final List<Problem> problems = new ArrayList<>();

    static void check(ConfiguratorDraft draft) {
        DraftRules r = new DraftRules();
        r.text("name", "The name", draft.name(), NAME_MAX, true);
        r.text("description", "The description", draft.description(), DESCRIPTION_MAX, false);
        if (draft.status() == null) {
            r.problem("status", "Choose a status.");
        }
        r.rows("items", "items", draft.items().size());
        for (int i = 0; i < draft.items().size(); i++) {
            ItemDraft item = draft.items().get(i);
            r.text("items[" + i + "].name", "An item's name", item.name(), NAME_MAX, true);
            r.price("items[" + i + "].price", item.price());
        }
        r.variables("variables", draft.variables());
        r.throwIfAny();
    }

    static void check(VariablesDraft draft) {
        DraftRules r = new DraftRules();
        r.variables("variables", draft.variables());
        r.throwIfAny();
    }

    static void check(FiltersDraft draft) {
        DraftRules r = new DraftRules();
        r.rows("rules", "filter rules", draft.rules().size());
        for (int i = 0; i < draft.rules().size(); i++) {
            r.text("rules[" + i + "]", "A filter rule", draft.rules().get(i), RULE_MAX, true);
        }
        r.throwIfAny();
    }

    private void variables(String path, List<VariableDraft> variables) {
        rows(path, "variables", variables.size());
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < variables.size(); i++) {
            VariableDraft v = variables.get(i);
            String at = path + "[" + i + "]";
            if (text(at + ".name", "A variable's name", v.name(), NAME_MAX, true)) {
                String name = v.name().strip();
                Integer earlier = seen.putIfAbsent(name.toLowerCase(Locale.ROOT), i);
                if (earlier != null) {
                    problem(
                            at + ".name",
                            "There is already a variable named “"
                                    + name
                                    + "” (row "
                                    + (earlier + 1)
                                    + "). Variable names must be unique.");
                }
            }
            if (v.type() == null) {
                problem(at + ".type", "Choose a type.");
            } else if (text(at + ".value", "A variable's value", v.value(), VALUE_MAX, false)) {
                typed(at + ".value", v.type(), v.value() == null ? "" : v.value().strip());
            }
        }
    }

    private void typed(String field, VariableType type, String value) {
        if (value.isEmpty()) {
            return;
        }
        if (type == VariableType.NUMBER) {
            try {
                new BigDecimal(value);
            } catch (NumberFormatException e) {
                problem(field, "“" + value + "” is not a number.");
            }
        } else if (type == VariableType.BOOLEAN
                && !value.equals("true")
                && !value.equals("false")) {
            problem(field, "A yes/no variable is either true or false.");
        }
    }

    private boolean text(String field, String what, String value, int max, boolean required) {
        if (value == null || value.isBlank()) {
            if (required) {
                problem(field, what + " is required.");
                return false;
            }
            return true;
        }
        String broken = PlainText.problem(value);
        if (broken != null) {
            problem(field, what + " " + broken);
            return false;
        }
        if (value.strip().length() > max) {
            problem(
                    field,
                    what
                            + " can be at most "
                            + max
                            + " characters (it has "
                            + value.strip().length()
                            + ").");
            return false;
        }
        return true;
    }

    private void price(String field, BigDecimal price) {
        if (price == null) {
            problem(field, "An item needs a price (0 is allowed).");
        } else if (price.signum() < 0) {
            problem(field, "A price cannot be negative.");
        } else if (price.compareTo(PRICE_MAX) > 0 || price.stripTrailingZeros().scale() > 2) {
            problem(field, "A price has at most 10 digits before and 2 after the decimal point.");
        }
    }

    private void rows(String field, String what, int count) {
        if (count > ROWS_MAX) {
            problem(field, "At most " + ROWS_MAX + " " + what + " are allowed.");
        }
    }

    private void problem(String field, String message) {
        problems.add(new Problem(field, message));
    }

    private void throwIfAny() {
        if (!problems.isEmpty()) {
            throw new InvalidDraftException(problems);
        }
    }
}
