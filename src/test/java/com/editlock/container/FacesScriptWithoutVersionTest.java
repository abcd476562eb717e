package com.editlock.container;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FacesScriptWithoutVersionTest {

    @Test
    void theVersionGoesAndEveryOtherParameterStays() {
        assertThat(
                        FacesScriptWithoutVersion.withoutVersion(
                                "/editlock/jakarta.faces.resource/faces.js.xhtml?ln=jakarta.faces&v=4.1.18.payara-p1"))
                .isEqualTo("/editlock/jakarta.faces.resource/faces.js.xhtml?ln=jakarta.faces");
        assertThat(
                        FacesScriptWithoutVersion.withoutVersion(
                                "/r/faces.js.xhtml?ln=jakarta.faces&v=4.1.18&loc=de"))
                .isEqualTo("/r/faces.js.xhtml?ln=jakarta.faces&loc=de");
        assertThat(FacesScriptWithoutVersion.withoutVersion("/r/x.js.xhtml?v=1&ln=jakarta.faces"))
                .isEqualTo("/r/x.js.xhtml?ln=jakarta.faces");
        assertThat(FacesScriptWithoutVersion.withoutVersion("/r/x.js.xhtml?ln=jakarta.faces"))
                .isEqualTo("/r/x.js.xhtml?ln=jakarta.faces");
    }
}
