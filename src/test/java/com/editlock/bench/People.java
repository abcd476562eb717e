package com.editlock.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;

/**
 * People for a benchmark to spread its pages over: one person holds at most 48 streams over all
 * their sessions, as a browser's pages share one, so many simulated browsers need many people.
 */
final class People {

    private People() {}

    /**
     * Adds {@code count} editors named {@code prefix01}, {@code prefix02} … (password {@code demo})
     * and returns their logins.
     */
    static List<String> add(Connection c, String prefix, int count) throws Exception {
        List<String> people = new ArrayList<>();
        String hash =
                com.editlock.launcher.AddUser.hash(
                        "demo".toCharArray(), new java.security.SecureRandom());
        try (PreparedStatement user =
                        c.prepareStatement(
                                "insert into app_user (login, display_name, password_hash)"
                                        + " values (?, ?, ?)");
                PreparedStatement role =
                        c.prepareStatement(
                                "insert into app_user_role (login, role) values (?, 'editor')")) {
            for (int i = 1; i <= count; i++) {
                String login = String.format("%s%02d", prefix, i);
                user.setString(1, login);
                user.setString(
                        2, prefix.substring(0, 1).toUpperCase() + prefix.substring(1) + " " + i);
                user.setString(3, hash);
                user.executeUpdate();
                role.setString(1, login);
                role.executeUpdate();
                people.add(login);
            }
        }
        return people;
    }
}
