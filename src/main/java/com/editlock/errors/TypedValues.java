package com.editlock.errors;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What a user typed into an edit form that can no longer be processed: its session ended (logout
 * elsewhere, a timeout, a restart or redeploy of the server) or its page's view is gone. The answer
 * to such a post shows these values, so nothing typed is lost even though nothing was saved. Only
 * the editors' {@code edit} forms are read, and only a full post (an Ajax refresh carries nothing
 * typed); buttons and Faces' own fields are left out.
 */
public final class TypedValues {

    /** The id every editor page gives its form. */
    static final String FORM = "edit";

    /** The last segment of the editors' command buttons, which a browser posts as name=label. */
    private static final Set<String> BUTTONS =
            Set.of("save", "done", "addItem", "addRule", "addVariable", "up", "down", "remove");

    private TypedValues() {}

    /**
     * The posted values of an editor form, in form order, labelled for people; empty for any other
     * request.
     */
    public static Map<String, String> of(HttpServletRequest request) {
        Map<String, String> typed = new LinkedHashMap<>();
        if (!"POST".equals(request.getMethod())
                || request.getParameter(FORM) == null
                || "partial/ajax".equals(request.getHeader("Faces-Request"))) {
            return typed;
        }
        for (Enumeration<String> names = request.getParameterNames(); names.hasMoreElements(); ) {
            String name = names.nextElement();
            String value = request.getParameter(name);
            if (name.startsWith(FORM + ":")
                    && value != null
                    && !value.isBlank()
                    && !BUTTONS.contains(name.substring(name.lastIndexOf(':') + 1))) {
                typed.put(label(name), value);
            }
        }
        return typed;
    }

    /** {@code edit:items:0:price} → {@code items, row 1, price}. */
    static String label(String name) {
        String[] parts = name.substring(FORM.length() + 1).split(":");
        StringBuilder label = new StringBuilder();
        for (String part : parts) {
            if (label.length() > 0) {
                label.append(", ");
            }
            label.append(part.matches("\\d{1,6}") ? "row " + (Integer.parseInt(part) + 1) : part);
        }
        return label.toString();
    }
}
