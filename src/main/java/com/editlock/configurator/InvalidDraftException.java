package com.editlock.configurator;

import java.util.List;

/**
 * A draft breaks a rule (empty name, negative price, duplicate variable, text too long …); nothing
 * was saved.
 */
public class InvalidDraftException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * One broken rule: {@code field} is a path such as {@code name}, {@code items[2].price}, {@code
     * rules[0]}.
     */
    public record Problem(String field, String message) implements java.io.Serializable {}

    private final transient List<Problem> problems;

    public InvalidDraftException(List<Problem> problems) {
        super(
                problems.size() == 1
                        ? problems.get(0).message() + " Nothing was saved."
                        : problems.size() + " fields need attention; nothing was saved.");
        this.problems = List.copyOf(problems);
    }

    public List<Problem> problems() {
        return problems;
    }
}
