package com.editlock.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LoginPageTest {

    @ParameterizedTest
    @CsvSource(
            nullValues = "null",
            value = {
                "/configurator.xhtml?id=3, /configurator.xhtml?id=3",
                "/filters.xhtml?id=2,      /filters.xhtml?id=2",
                "null,                     /configurators.xhtml",
                "'',                       /configurators.xhtml",
                "//evil.example/x,         /configurators.xhtml",
                "https://evil.example/,    /configurators.xhtml",
                "/\\evil.example,          /configurators.xhtml",
                "/login.xhtml,             /configurators.xhtml",
                "/api/locks,               /configurators.xhtml"
            })
    void afterLoginGoesBackToTheAskedPageButNeverElsewhere(String next, String expected) {
        LoginPage page = new LoginPage();
        page.setNext(next);
        assertThat(page.safeNext()).isEqualTo(expected);
    }
}
