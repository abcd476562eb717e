package com.editlock.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.platform.Languages;
import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Both languages say everything, and every sentence with places for names is a valid pattern. */
class TextBundlesTest {

    private static Set<String> keys(Locale locale) {
        ResourceBundle b = ResourceBundle.getBundle(Languages.BUNDLE, locale);
        Set<String> own = new TreeSet<>();
        // handleKeySet: the bundle's own keys, not those it falls back to
        for (String k : Collections.list(b.getKeys())) {
            if (b.containsKey(k)) {
                own.add(k);
            }
        }
        return own;
    }

    @Test
    void germanHasEverySentenceEnglishHasAndNoOther() throws Exception {
        var english = new java.util.Properties();
        var german = new java.util.Properties();
        try (var in =
                        TextBundlesTest.class.getResourceAsStream(
                                "/com/editlock/platform/Text.properties");
                var de =
                        TextBundlesTest.class.getResourceAsStream(
                                "/com/editlock/platform/Text_de.properties")) {
            english.load(
                    new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8));
            german.load(new java.io.InputStreamReader(de, java.nio.charset.StandardCharsets.UTF_8));
        }
        assertThat(german.stringPropertyNames()).isEqualTo(english.stringPropertyNames());
        assertThat(keys(Locale.GERMAN)).containsAll(english.stringPropertyNames());
    }

    @Test
    void everySentenceIsAPatternThatTakesItsPlaces() {
        List<String> broken = new ArrayList<>();
        for (Locale locale : Languages.SPOKEN) {
            ResourceBundle b = ResourceBundle.getBundle(Languages.BUNDLE, locale);
            for (String key : Collections.list(b.getKeys())) {
                String pattern = b.getString(key);
                if (!pattern.contains("{") || key.startsWith("js.")) {
                    if (pattern.contains("''")) { // shown as it is: the apostrophe would show twice
                        broken.add(locale + " " + key + ": '' in a sentence shown as it is");
                    }
                    continue;
                }
                try {
                    new MessageFormat(pattern, locale).format(new Object[] {1, 2, 3, 20, 1});
                } catch (IllegalArgumentException e) {
                    broken.add(locale + " " + key + ": " + e.getMessage());
                }
                if (pattern.matches("(?s).*[^']'[^'].*")) {
                    broken.add(locale + " " + key + ": a single apostrophe hides what follows");
                }
            }
        }
        assertThat(broken).isEmpty();
    }
}
