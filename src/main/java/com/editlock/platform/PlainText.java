package com.editlock.platform;

/**
 * What text a user may store or send: no control characters (tab, line feed and carriage return
 * excepted) and no unpaired UTF-16 surrogates. PostgreSQL refuses a NUL byte in text outright, and
 * the others are never typed by a person; they come from scripts, copy-paste accidents and
 * attackers, so they are refused with a sentence rather than stored.
 */
public final class PlainText {

    private PlainText() {}

    /** What is wrong with {@code value}, or null when it is fine (null itself is fine). */
    public static String problem(String value) {
        if (value == null) {
            return null;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0x7f && c <= 0x9f)) {
                return "contains a control character (U+"
                        + String.format("%04X", (int) c)
                        + ") at position "
                        + (i + 1)
                        + "; remove it.";
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return "contains a broken character (an unpaired surrogate) at position "
                        + (i + 1)
                        + "; remove it.";
            }
            if (Character.isLowSurrogate(c)) {
                return "contains a broken character (an unpaired surrogate) at position "
                        + (i + 1)
                        + "; remove it.";
            }
        }
        return null;
    }

    /** Whether {@code value} is fine. */
    public static boolean isPlain(String value) {
        return problem(value) == null;
    }
}
