package com.editlock.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.platform.Settings;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProviderLoginTest {

    private static final Settings.Provider PROVIDER =
            new Settings.Provider(
                    "https://login.example.com",
                    "editlock",
                    "secret",
                    "groups",
                    Map.of(
                            "editlock-editors", Set.of("editor"),
                            "editlock-admins", Set.of("admin", "editor")),
                    "CorpID",
                    Optional.empty());

    private static IDTokenClaimsSet claims(Map<String, Object> extra) throws Exception {
        JWTClaimsSet.Builder b =
                new JWTClaimsSet.Builder()
                        .issuer("https://login.example.com")
                        .subject("s-1")
                        .audience("editlock")
                        .issueTime(new Date())
                        .expirationTime(new Date(System.currentTimeMillis() + 60_000));
        extra.forEach(b::claim);
        return new IDTokenClaimsSet(b.build());
    }

    @Test
    void rolesComeFromTheMappedGroupsOnly() throws Exception {
        assertThat(
                        ProviderLogin.roles(
                                PROVIDER,
                                claims(Map.of("groups", List.of("editlock-admins", "marketing")))))
                .containsExactlyInAnyOrder("admin", "editor");
        assertThat(ProviderLogin.roles(PROVIDER, claims(Map.of("groups", "editlock-editors"))))
                .as("a single group as a string")
                .containsExactly("editor");
        assertThat(ProviderLogin.roles(PROVIDER, claims(Map.of("groups", List.of("marketing")))))
                .isEmpty();
        assertThat(ProviderLogin.roles(PROVIDER, claims(Map.of()))).as("no claim").isEmpty();
        assertThat(ProviderLogin.roles(PROVIDER, claims(Map.of("groups", 5))))
                .as("a claim of another type")
                .isEmpty();
    }

    @Test
    void theLoginIsThePreferredUserNameUpToItsAtSign() throws Exception {
        assertThat(ProviderLogin.login(claims(Map.of("preferred_username", "Omar.K"))))
                .isEqualTo("omar.k");
        assertThat(
                        ProviderLogin.login(
                                claims(Map.of("preferred_username", "omar@corp.example.com"))))
                .as("Entra ID's user principal name")
                .isEqualTo("omar");
        assertThat(ProviderLogin.login(claims(Map.of("email", "ivy@corp.example.com"))))
                .isEqualTo("ivy");
        assertThat(ProviderLogin.login(claims(Map.of()))).isNull();
    }

    @Test
    void afterALoginTheBrowserGoesOnlyToAPathOfThisApplication() {
        assertThat(ProviderLogin.safeNext("/configurator.xhtml?id=3"))
                .isEqualTo("/configurator.xhtml?id=3");
        for (String elsewhere :
                new String[] {
                    null,
                    "https://evil.example",
                    "//evil.example",
                    "/\\evil.example",
                    "/login.xhtml",
                    "/api/locks",
                    "/oidc/callback",
                    "/x\u0000"
                }) {
            assertThat(ProviderLogin.safeNext(elsewhere))
                    .as(String.valueOf(elsewhere))
                    .isEqualTo("/configurators.xhtml");
        }
    }
}
