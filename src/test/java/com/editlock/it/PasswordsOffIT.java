package com.editlock.it;

import static com.editlock.it.browser.ProviderPages.claims;
import static com.editlock.it.browser.ProviderPages.signIn;
import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.it.browser.Browser;
import com.editlock.it.browser.ProviderPages;
import com.editlock.it.browser.ProviderPages.Begun;
import com.editlock.it.node.Deployments;
import com.editlock.it.node.TestProvider;
import jakarta.json.Json;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An installation that logs people in through its provider only ({@code LOCKS_PASSWORDS=false}): no
 * password form, no password by HTTP Basic, nobody added with a password; the provider's people log
 * in, and their scripts use API tokens.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public class PasswordsOffIT {

    @Deployment(testable = false)
    public static WebArchive deployment() {
        return Deployments.editlock()
                .addAsResource(
                        new StringAsset(TestProvider.settings() + "locks.passwords=false\n"),
                        "META-INF/microprofile-config.properties");
    }

    @ArquillianResource URL base;

    @Test
    void onlyTheProviderLogsPeopleInAndNobodyIsGivenAPassword() {
        Browser visitor = new Browser(URI.create(base.toString()));
        String page = visitor.get("login.xhtml").body();
        assertThat(page)
                .as("no password form, the provider's button")
                .doesNotContain("login:password")
                .contains("data-testid=\"login-with-provider\"");
        HttpResponse<String> basic =
                new Browser(URI.create(base.toString())).basic("ada", "demo").get("api/locks");
        assertThat(basic.statusCode()).isEqualTo(401);
        assertThat(basic.body())
                .contains("Passwords are switched off here: log in through " + TestProvider.NAME);

        String suffix = Long.toString(System.nanoTime(), 36);
        Begun begun = ProviderPages.begin(base);
        HttpResponse<String> in =
                begun.browser()
                        .get(
                                signIn(
                                                begun,
                                                "head-" + suffix,
                                                claims(
                                                        "head" + suffix,
                                                        "Hedda Head",
                                                        "editlock-admins",
                                                        "editlock-editors"))
                                        .toString());
        assertThat(in.statusCode()).as(in.body()).isEqualTo(302);
        Browser admin = begun.browser();
        HttpResponse<String> added =
                admin.postJson(
                        "api/people",
                        "{\"login\":\"ivy"
                                + suffix
                                + "\",\"name\":\"Ivy\",\"roles\":[\"editor\"]}");
        assertThat(added.statusCode()).as(added.body()).isEqualTo(409);
        assertThat(added.body()).contains("Passwords are switched off here");
        assertThat(admin.post("api/people/sara/password").statusCode()).isEqualTo(409);
        assertThat(admin.get("admin/people.xhtml").body())
                .as("the people screen offers no one a password")
                .contains("data-testid=\"people\"")
                .doesNotContain("data-testid=\"add-person\"")
                .doesNotContain("data-testid=\"reset-password\"");

        HttpResponse<String> made = admin.postJson("api/tokens", "{\"name\":\"nightly import\"}");
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
        String token =
                Json.createReader(new StringReader(made.body())).readObject().getString("token");
        assertThat(
                        new Browser(URI.create(base.toString()))
                                .bearer(token)
                                .get("api/locks")
                                .statusCode())
                .as("a script's API token")
                .isEqualTo(200);
    }
}
