package com.kvportal.common.validation;

/**
 * Text that people read as the service shows it (names, descriptions): it may not hold characters that change how
 * it looks without being seen themselves, with which a name can pass for another, e.g. {@code "prod\u202Eyek"}
 * shown as "prodkey": the bidirectional controls (U+202A to U+202E, U+2066 to U+2069) and the invisible characters
 * (U+200B to U+200D, U+2060, U+FEFF).
 */
public final class ReadableText {

    /** The message of a field that holds one. */
    public static final String HIDDEN_CHARACTERS =
            "must not contain invisible characters or bidirectional controls (U+200B to U+200D, U+2060, U+FEFF,"
                    + " U+202A to U+202E, U+2066 to U+2069): type the text as it is to be read";

    private ReadableText() {}

    /** Whether the text holds a character that changes how it looks without being seen. */
    public static boolean hasHiddenCharacters(String text) {
        return text.codePoints().anyMatch(ReadableText::isHidden);
    }

    private static boolean isHidden(int c) {
        return (c >= 0x202A && c <= 0x202E)
                || (c >= 0x2066 && c <= 0x2069)
                || (c >= 0x200B && c <= 0x200D)
                || c == 0x2060
                || c == 0xFEFF;
    }
}
