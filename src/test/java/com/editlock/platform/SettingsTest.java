package com.editlock.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SettingsTest {

    private static Settings of(Map<String, String> values) {
        return Settings.from(key -> Optional.ofNullable(values.get(key)));
    }

    @Test
    void defaultsMatchTheDocumentation() {
        Settings s = of(Map.of());
        assertThat(s.leaseSeconds()).isEqualTo(10);
        assertThat(s.sweepSeconds()).isEqualTo(2);
        assertThat(s.tabGraceMillis()).isEqualTo(1_300);
        assertThat(s.auditRetentionDays()).isEqualTo(90);
        assertThat(s.oldLockMinutes()).isEqualTo(60);
        assertThat(s.sessionTimeoutSeconds()).isEqualTo(1800);
        assertThat(s.demoData()).isFalse();
        assertThat(s.httpPort()).isEqualTo(8080);
        assertThat(s.heartbeatSeconds()).as("four beats or more to a lease").isEqualTo(2);
        assertThat(s.idleTimeoutSeconds()).isEqualTo(900);
    }

    @Test
    void readsValuesWithSpacesAndOnOff() {
        Settings s = of(Map.of(Settings.LEASE_SECONDS, " 5 ", Settings.DEMO_DATA, "on"));
        assertThat(s.leaseSeconds()).isEqualTo(5);
        assertThat(s.demoData()).isTrue();
        assertThat(s.heartbeatSeconds()).isEqualTo(1);
    }

    @Test
    void theHeartbeatFitsFourTimesIntoTheLeaseAndIntoTheSessionTimeout() {
        assertThat(
                        of(Map.of(
                                        Settings.LEASE_SECONDS,
                                        "30",
                                        Settings.SESSION_TIMEOUT_SECONDS,
                                        "10"))
                                .heartbeatSeconds())
                .isEqualTo(2);
        assertThat(
                        of(Map.of(
                                        Settings.LEASE_SECONDS,
                                        "300",
                                        Settings.SESSION_TIMEOUT_SECONDS,
                                        "1800"))
                                .heartbeatSeconds())
                .isEqualTo(75);
    }

    @Test
    void theTabGraceIsSetInSecondsToTheMillisecond() {
        assertThat(of(Map.of(Settings.TAB_GRACE_SECONDS, "2")).tabGraceMillis()).isEqualTo(2_000);
        assertThat(of(Map.of(Settings.TAB_GRACE_SECONDS, " 1.25 ")).tabGraceMillis())
                .isEqualTo(1_250);
        assertThat(of(Map.of(Settings.TAB_GRACE_SECONDS, "0")).tabGraceMillis()).isZero();
        for (String bad : new String[] {"1.2345", "1,3", "-1", "60.001", "1.3s", ".5", "1e3"}) {
            assertThatThrownBy(() -> of(Map.of(Settings.TAB_GRACE_SECONDS, bad)))
                    .as(bad)
                    .isInstanceOf(InvalidSettingException.class)
                    .hasMessageContaining("LOCKS_TAB_GRACE_SECONDS")
                    .hasMessageContaining("'" + bad + "'")
                    .hasMessageContaining("from 0 to 60, to the millisecond at most");
        }
    }

    @Test
    void aBadValueNamesTheKeyItsVariableAndTheRange() {
        assertThatThrownBy(() -> of(Map.of(Settings.LEASE_SECONDS, "two minutes")))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("LOCKS_LEASE_SECONDS (locks.lease.seconds) is 'two minutes'")
                .hasMessageContaining("from 5 to 86400");
        assertThatThrownBy(() -> of(Map.of(Settings.SWEEP_SECONDS, "0")))
                .hasMessageContaining("LOCKS_SWEEP_SECONDS");
        assertThatThrownBy(() -> of(Map.of(Settings.HTTP_PORT, "70000")))
                .hasMessageContaining("from 1 to 65535");
        assertThatThrownBy(() -> of(Map.of(Settings.DEMO_DATA, "maybe")))
                .hasMessageContaining("true or false");
    }

    @Test
    void everyBadKeyIsReportedAtOnce() {
        assertThatThrownBy(
                        () ->
                                of(
                                        Map.of(
                                                Settings.LEASE_SECONDS,
                                                "-1",
                                                Settings.SESSION_TIMEOUT_SECONDS,
                                                "x")))
                .hasMessageContaining("LOCKS_LEASE_SECONDS")
                .hasMessageContaining("LOCKS_SESSION_TIMEOUT_SECONDS");
    }

    @Test
    void theProviderIsOffUntilItsIssuerIsSetAndThenNeedsItsClientAndRoles() {
        assertThat(of(Map.of()).provider()).isEmpty();
        Settings.Provider provider =
                of(Map.of(
                                Settings.OIDC_ISSUER,
                                "https://login.example.com/realms/company",
                                Settings.OIDC_CLIENT_ID,
                                "editlock",
                                Settings.OIDC_CLIENT_SECRET,
                                "s3cret",
                                Settings.OIDC_ROLE_MAP,
                                " editlock-admins=admin, editlock-admins=editor,"
                                        + "team=editors=editor "))
                        .provider()
                        .orElseThrow();
        assertThat(provider.rolesClaim()).isEqualTo("groups");
        assertThat(provider.name()).isEqualTo("single sign-on");
        assertThat(provider.redirectBase()).isEmpty();
        assertThat(provider.roleMap())
                .as("a group name may hold an equals sign")
                .containsOnly(
                        Map.entry("editlock-admins", java.util.Set.of("admin", "editor")),
                        Map.entry("team=editors", java.util.Set.of("editor")));
        assertThat(provider.toString()).as("never the secret").doesNotContain("s3cret");

        assertThatThrownBy(
                        () ->
                                of(
                                        Map.of(
                                                Settings.OIDC_ISSUER,
                                                "login.example.com",
                                                Settings.OIDC_ROLE_MAP,
                                                "editlock-admins=root")))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining(
                        "LOCKS_OIDC_ISSUER (locks.oidc.issuer) is 'login.example.com'")
                .hasMessageContaining("LOCKS_OIDC_CLIENT_ID (locks.oidc.client.id) is needed")
                .hasMessageContaining(
                        "LOCKS_OIDC_CLIENT_SECRET (locks.oidc.client.secret) is needed")
                .hasMessageContaining(
                        "LOCKS_OIDC_ROLE_MAP (locks.oidc.role.map) has 'editlock-admins=root'")
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void passwordsGoOffOnlyWhenAProviderLetsPeopleIn() {
        assertThat(of(Map.of()).passwords()).isTrue();
        assertThatThrownBy(() -> of(Map.of(Settings.PASSWORDS, "off")))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("LOCKS_PASSWORDS (locks.passwords) is off")
                .hasMessageContaining("nobody could log in");
        assertThat(
                        of(Map.of(
                                        Settings.PASSWORDS,
                                        "false",
                                        Settings.OIDC_ISSUER,
                                        "https://login.example.com",
                                        Settings.OIDC_CLIENT_ID,
                                        "editlock",
                                        Settings.OIDC_CLIENT_SECRET,
                                        "s",
                                        Settings.OIDC_ROLE_MAP,
                                        "staff=editor"))
                                .passwords())
                .isFalse();
    }

    @Test
    void environmentNamesFollowMicroProfileMapping() {
        assertThat(Settings.environmentName("locks.db.url")).isEqualTo("LOCKS_DB_URL");
    }
}
