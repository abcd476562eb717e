package com.editlock.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.platform.PlainText;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class PlainTextValidatorTest {

    @Test
    void aFieldWithAControlCharacterIsRefusedInTheReadersLanguage() {
        PlainText.Flaw bell = PlainText.flaw("Rahmen\u0007");
        assertThat(PlainTextValidator.message(Locale.GERMANY, bell))
                .isEqualTo(
                        "Dieses Feld enthält ein Steuerzeichen (U+0007) an Position 7; entfernen"
                                + " Sie es.");
        assertThat(PlainTextValidator.message(Locale.US, bell))
                .isEqualTo(
                        "This field contains a control character (U+0007) at position 7; remove"
                                + " it.");
        assertThat(PlainTextValidator.message(null, PlainText.flaw("x".repeat(1200) + "\ud800")))
                .as("a position past a thousand is written without a separator, in English")
                .isEqualTo(
                        "This field contains a broken character (an unpaired surrogate) at"
                                + " position 1201; remove it.");
    }
}
