package com.editlock.security;

import com.editlock.platform.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.identitystore.Pbkdf2PasswordHash;
import java.util.Map;

/**
 * Password hashes: Jakarta Security's PBKDF2 with HMAC-SHA256 at {@code locks.password.iterations}
 * (600,000 by default, OWASP's current figure for this function), a 32-byte salt and a 32-byte key,
 * stored as {@code PBKDF2WithHmacSHA256:600000:salt:hash}. A stored hash names its own parameters,
 * so hashes made with fewer iterations keep working, and {@link #isOutdated} tells the login to
 * replace them.
 */
@ApplicationScoped
public class PasswordHashes {

    static final String ALGORITHM = "PBKDF2WithHmacSHA256";

    @Inject Pbkdf2PasswordHash pbkdf2;

    @Inject Settings settings;

    /**
     * Checked against when the user does not exist, so an unknown user costs as much time as a
     * wrong password.
     */
    private String decoy;

    @PostConstruct
    void configure() {
        pbkdf2.initialize(
                Map.of(
                        "Pbkdf2PasswordHash.Algorithm",
                        ALGORITHM,
                        "Pbkdf2PasswordHash.Iterations",
                        String.valueOf(settings.passwordIterations()),
                        "Pbkdf2PasswordHash.SaltSizeBytes",
                        "32",
                        "Pbkdf2PasswordHash.KeySizeBytes",
                        "32"));
        decoy = pbkdf2.generate("no user has this password".toCharArray());
    }

    public String generate(char[] password) {
        return pbkdf2.generate(password);
    }

    public boolean verify(char[] password, String stored) {
        try {
            return pbkdf2.verify(password, stored);
        } catch (
                RuntimeException
                        e) { // a stored value that is not a hash: nobody can log in with it
            return false;
        }
    }

    /** Spends the time of one verification, for a user that does not exist. */
    public void verifyDecoy(char[] password) {
        pbkdf2.verify(password, decoy);
    }

    /**
     * Whether {@code stored} was made with another algorithm or fewer iterations than configured
     * now.
     */
    public boolean isOutdated(String stored) {
        String[] parts = stored.split(":");
        try {
            return parts.length != 4
                    || !parts[0].equals(ALGORITHM)
                    || Integer.parseInt(parts[1]) < settings.passwordIterations();
        } catch (NumberFormatException e) {
            return true;
        }
    }
}
