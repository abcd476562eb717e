package com.editlock.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class AddUserTest {

    /**
     * A hash that the container's Pbkdf2PasswordHash generated for "demo" (read from a demo
     * database).
     */
    private static final String FROM_THE_CONTAINER =
            "PBKDF2WithHmacSHA256:2048:"
                    + "T7jinskQwDTGcibeSTvAmd2B3WInmDOt8hHscbfNt2M=:2swRVN5YBcrDUEgAS+ALTw4Qf04DVbkYxBmCYcBpb8k=";

    @Test
    void derivesExactlyWhatTheContainerChecks() throws Exception {
        String[] parts = FROM_THE_CONTAINER.split(":");
        byte[] salt = Base64.getDecoder().decode(parts[2]);
        assertThat(
                        Base64.getEncoder()
                                .encodeToString(AddUser.derive("demo".toCharArray(), salt, 2048)))
                .isEqualTo(parts[3]);
        assertThat(
                        Base64.getEncoder()
                                .encodeToString(AddUser.derive("Demo".toCharArray(), salt, 2048)))
                .isNotEqualTo(parts[3]);
    }

    @Test
    void hashesHaveTheContainersFormatAndAFreshSalt() throws Exception {
        String a = AddUser.hash("secret-123".toCharArray(), new SecureRandom());
        String b = AddUser.hash("secret-123".toCharArray(), new SecureRandom());
        assertThat(a)
                .matches("PBKDF2WithHmacSHA256:600000:[A-Za-z0-9+/=]{44}:[A-Za-z0-9+/=]{44}")
                .isNotEqualTo(b);
    }
}
