package com.editlock.it.node;

import java.net.InetAddress;
import java.net.UnknownHostException;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;

/**
 * The company's OpenID Connect provider in the tests: NAV's mock-oauth2-server in the test JVM, on
 * 127.0.0.1 only, with its login page (a person types any user name and the claims their ID token
 * carries). One for the whole run, started by the first suite that needs it.
 */
public final class TestProvider {

    /** The provider's issuer, under its address: {@code http://127.0.0.1:port/editlock}. */
    public static final String ISSUER_ID = "editlock";

    public static final String CLIENT_ID = "editlock-tests";

    public static final String CLIENT_SECRET = "a-secret-the-node-never-logs";

    /** What the login page's button says: "Log in with CorpID". */
    public static final String NAME = "CorpID";

    private static MockOAuth2Server server;

    private TestProvider() {}

    /** The provider, started on first use. */
    public static synchronized MockOAuth2Server server() {
        if (server == null) {
            MockOAuth2Server started =
                    new MockOAuth2Server(
                            OAuth2Config.Companion.fromJson("{\"interactiveLogin\":true}"));
            try {
                started.start(InetAddress.getByName("127.0.0.1"), 0);
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(started::shutdown));
            server = started;
        }
        return server;
    }

    /** The issuer, as the provider's discovery document names it. */
    public static String issuer() {
        return server().issuerUrl(ISSUER_ID).toString();
    }

    /**
     * The node's settings for this provider (a {@code microprofile-config.properties}): groups
     * {@code editlock-editors}, {@code editlock-admins} and {@code editlock-take-over} give the
     * roles of those names.
     */
    public static String settings() {
        return String.join(
                "\n",
                "locks.oidc.issuer=" + issuer(),
                "locks.oidc.client.id=" + CLIENT_ID,
                "locks.oidc.client.secret=" + CLIENT_SECRET,
                "locks.oidc.name=" + NAME,
                "locks.oidc.role.map=editlock-editors=editor,editlock-admins=admin,"
                        + "editlock-take-over=take-over",
                "");
    }
}
