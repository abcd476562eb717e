package com.editlock.platform;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PlainTextTest {

    @Test
    void refusesControlAndBrokenCharactersAndKeepsEverythingAPersonTypes() {
        assertThat(PlainText.problem("Home insurance — «Nord» 🚲\tline\r\nnext")).isNull();
        assertThat(PlainText.problem(null)).isNull();
        assertThat(PlainText.problem("a\u0000b"))
                .contains("control character (U+0000) at position 2");
        assertThat(PlainText.problem("a\u001bb")).contains("U+001B");
        assertThat(PlainText.problem("x\u0085")).contains("U+0085");
        assertThat(PlainText.problem("\ud800x"))
                .contains("unpaired surrogate")
                .contains("position 1");
        assertThat(PlainText.problem("x\udc00"))
                .contains("unpaired surrogate")
                .contains("position 2");
        assertThat(PlainText.problem("end\ud83d")).contains("unpaired surrogate");
    }

    @Test
    void theFlawSaysWhereAndWhatSoAScreenCanSayItInItsLanguage() {
        assertThat(PlainText.flaw("ok 🚲")).isNull();
        assertThat(PlainText.flaw("ab\u0007")).isEqualTo(new PlainText.Flaw(3, "0007"));
        assertThat(PlainText.flaw("\ud800x")).isEqualTo(new PlainText.Flaw(1, null));
    }
}
