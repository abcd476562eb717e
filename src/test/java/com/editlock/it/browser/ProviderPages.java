package com.editlock.it.browser;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.it.node.TestProvider;
import jakarta.json.Json;
import java.net.URI;
import java.net.URL;
import java.net.URLDecoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Signing in through the test provider ({@link TestProvider}) as a browser does, over HTTP: the
 * start of a sign-in, the provider's login page posted, and the answer it sends the browser back
 * with.
 */
public final class ProviderPages {

    private ProviderPages() {}

    /** A browser that began a sign-in: the provider's address it was sent to. */
    public record Begun(Browser browser, URI authorize) {}

    /** A new browser (stopping at redirects) that begins a sign-in to come back to the list. */
    public static Begun begin(URL base) {
        return begin(new Browser(URI.create(base.toString())).followRedirects(false));
    }

    /** {@code browser} (stopping at redirects) begins a sign-in to come back to the list. */
    public static Begun begin(Browser browser) {
        HttpResponse<String> start = browser.get("oidc/login?next=/configurators.xhtml");
        assertThat(start.statusCode()).as(start.body()).isEqualTo(302);
        URI authorize = URI.create(start.headers().firstValue("Location").orElseThrow());
        assertThat(authorize.toString()).startsWith(TestProvider.issuer());
        return new Begun(browser, authorize);
    }

    /** The provider's login page, posted: the answer it sends the browser back with. */
    public static URI signIn(Begun begun, String subject, String claims) {
        HttpResponse<String> page = begun.browser().get(begun.authorize().toString());
        assertThat(page.body()).as("the provider's login page").contains("name=\"username\"");
        HttpResponse<String> posted =
                begun.browser()
                        .postForm(
                                begun.authorize().toString(),
                                Map.of("username", subject, "claims", claims));
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(302);
        return URI.create(posted.headers().firstValue("Location").orElseThrow());
    }

    /** The claims the provider's login page is given: a login, a name and groups. */
    public static String claims(String login, String name, String... groups) {
        var g = Json.createArrayBuilder();
        for (String group : groups) {
            g.add(group);
        }
        return Json.createObjectBuilder()
                .add("preferred_username", login)
                .add("name", name)
                .add("groups", g)
                .build()
                .toString();
    }

    /** The query of {@code uri}, decoded. */
    public static Map<String, String> query(URI uri) {
        Map<String, String> q = new LinkedHashMap<>();
        for (String pair : uri.getRawQuery().split("&")) {
            int eq = pair.indexOf('=');
            q.put(
                    URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return q;
    }
}
