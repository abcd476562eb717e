package com.editlock.errors;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TypedValuesTest {

    private static final Map<String, String> SAVE = new LinkedHashMap<>();

    static {
        SAVE.put("edit", "edit");
        SAVE.put("edit:name", "Roof tiles");
        SAVE.put("edit:description", "Two lines\nof text");
        SAVE.put("edit:items:0:name", "Ridge");
        SAVE.put("edit:items:0:price", "12.50");
        SAVE.put("edit:items:1:name", "");
        SAVE.put("edit:items:0:remove", "Remove");
        SAVE.put("edit:save", "Save");
        SAVE.put("jakarta.faces.ViewState", "-123:456");
    }

    @Test
    void aSavePostedFromAnEditorKeepsEveryTypedFieldInFormOrderWithoutButtonsOrFacesFields() {
        assertThat(TypedValues.of(request("POST", SAVE, null)))
                .containsExactly(
                        Map.entry("name", "Roof tiles"),
                                Map.entry("description", "Two lines\nof text"),
                        Map.entry("items, row 1, name", "Ridge"),
                                Map.entry("items, row 1, price", "12.50"));
    }

    @Test
    void anAjaxRefreshAGetOrAnotherFormCarriesNothingTyped() {
        assertThat(TypedValues.of(request("POST", SAVE, "partial/ajax"))).isEmpty();
        assertThat(TypedValues.of(request("GET", SAVE, null))).isEmpty();
        assertThat(
                        TypedValues.of(
                                request(
                                        "POST",
                                        Map.of("login", "login", "login:username", "ada"),
                                        null)))
                .isEmpty();
    }

    private static HttpServletRequest request(
            String method, Map<String, String> parameters, String facesRequest) {
        return (HttpServletRequest)
                Proxy.newProxyInstance(
                        HttpServletRequest.class.getClassLoader(),
                        new Class<?>[] {HttpServletRequest.class},
                        (proxy, m, args) ->
                                switch (m.getName()) {
                                    case "getMethod" -> method;
                                    case "getParameter" -> parameters.get((String) args[0]);
                                    case "getParameterNames" ->
                                            Collections.enumeration(parameters.keySet());
                                    case "getHeader" ->
                                            "Faces-Request".equals(args[0]) ? facesRequest : null;
                                    default -> throw new UnsupportedOperationException(m.getName());
                                });
    }
}
