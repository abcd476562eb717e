package com.editlock.platform;

/**
 * What text a user may store or send: no control characters (tab, line feed and carriage return
 * excepted) and no unpaired UTF-16 surrogates. PostgreSQL refuses a NUL byte in text outright, and
 * the others are never typed by a person; they come from scripts, copy-paste accidents and
 * attackers, so they are refused with a sentence rather than stored.
 */
public final class PlainText {

    private PlainText() {}

    /**
     * The first character a person would not type: its position (from 1) and, for a control
     * character, its code ({@code "0007"}); for a broken one (an unpaired surrogate) the code is
     * null.
     */
    public record Flaw(int position, String controlCode) {}

    /** The first flaw in {@code value}, or null when it is fine (null itself is fine). */
    public static Flaw flaw(String value) {
        if (value == null) {
            return null;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0x7f && c <= 0x9f)) {
                return new Flaw(i + 1, String.format("%04X", (int) c));
            }
            if (Character.isHighSurrogate(c)
                    && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return new Flaw(i + 1, null);
            }
        }
        return null;
    }

    /** What is wrong with {@code value} in English, or null when it is fine. */
    public static String problem(String value) {
        Flaw flaw = flaw(value);
        if (flaw == null) {
            return null;
        }
        return flaw.controlCode() != null
                ? "contains a control character (U+"
                        + flaw.controlCode()
                        + ") at position "
                        + flaw.position()
                        + "; remove it."
                : "contains a broken character (an unpaired surrogate) at position "
                        + flaw.position()
                        + "; remove it.";
    }

    /** Whether {@code value} is fine. */
    public static boolean isPlain(String value) {
        return problem(value) == null;
    }
}
