package com.editlock.launcher;

import java.io.Console;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Prints the SQL that adds a user, for a database without demo data (production): {@code mvn -q
 * -Padd-user -Dlogin=ada -Ddisplay.name=Ada -Drole=admin}, asked for the password (or given it in
 * {@code LOCKS_NEW_PASSWORD}), writes {@code target/add-user-ada.sql} to run with {@code psql}. The
 * hash has the format and parameters Editlock's logins use ({@code
 * PBKDF2WithHmacSHA256:600000:salt:hash}, 32-byte salt and key, Base64; see {@code
 * PasswordHashes}).
 */
public final class AddUser {

    static final String ALGORITHM = "PBKDF2WithHmacSHA256";
    static final int ITERATIONS = 600_000;
    static final int BYTES = 32;

    public static void main(String[] args) throws GeneralSecurityException, IOException {
        String login = property("login", "").toLowerCase(Locale.ROOT);
        String name = property("display.name", "");
        String role = property("role", "editor");
        if (!login.matches("[a-z][a-z0-9._-]{0,63}")
                || name.isEmpty()
                || !(role.equals("editor") || role.equals("admin"))) {
            System.err.println(
                    "Usage: mvn -q -Padd-user -Dlogin=ada -Ddisplay.name=\"Ada Lovelace\" -Drole=admin|editor"
                            + "  (login: lower-case letters, digits, . _ -; starts with a letter)");
            System.exit(2);
        }
        char[] password = password();
        if (password.length < 8) {
            System.err.println("The password must have at least 8 characters.");
            System.exit(2);
        }
        String sql =
                "insert into app_user (login, display_name, password_hash) values ('"
                        + login
                        + "', '"
                        + name.replace("'", "''")
                        + "', '"
                        + hash(password, new SecureRandom())
                        + "');\n"
                        + "insert into app_user_role (login, role) values ('"
                        + login
                        + "', '"
                        + role
                        + "');\n";
        Path out = Path.of(property("out", "target/add-user-" + login + ".sql"));
        Files.writeString(out, sql);
        System.out.println(
                "Wrote "
                        + out
                        + "; run it against the database, e.g. psql \"$DATABASE\" -f "
                        + out);
    }

    public static String hash(char[] password, SecureRandom random)
            throws GeneralSecurityException {
        byte[] salt = new byte[BYTES];
        random.nextBytes(salt);
        return ALGORITHM
                + ":"
                + ITERATIONS
                + ":"
                + Base64.getEncoder().encodeToString(salt)
                + ":"
                + Base64.getEncoder().encodeToString(derive(password, salt));
    }

    static byte[] derive(char[] password, byte[] salt) throws GeneralSecurityException {
        return derive(password, salt, ITERATIONS);
    }

    static byte[] derive(char[] password, byte[] salt, int iterations)
            throws GeneralSecurityException {
        return SecretKeyFactory.getInstance(ALGORITHM)
                .generateSecret(new PBEKeySpec(password, salt, iterations, BYTES * 8))
                .getEncoded();
    }

    /**
     * A -D option, trimmed; a blank one (the add-user profile passes each, empty when not given) is
     * none.
     */
    private static String property(String key, String absent) {
        String value = System.getProperty(key, "").trim();
        return value.isEmpty() ? absent : value;
    }

    private static char[] password() {
        String given = System.getenv("LOCKS_NEW_PASSWORD");
        if (given != null) {
            return given.toCharArray();
        }
        Console console = System.console();
        if (console == null) {
            System.err.println("No terminal to ask for the password: set LOCKS_NEW_PASSWORD.");
            System.exit(2);
        }
        return console.readPassword("Password for the new user: ");
    }
}
