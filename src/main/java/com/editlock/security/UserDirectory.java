package com.editlock.security;

import com.editlock.platform.Database;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Display names of users, as shown on every screen ("Being edited by Sara"). */
@ApplicationScoped
public class UserDirectory {

    @Resource(lookup = Database.JNDI_NAME)
    DataSource dataSource;

    public String displayName(String login) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement("select display_name from app_user where login = ?")) {
            ps.setString(1, login);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : login;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Could not read the user directory: " + e.getMessage(), e);
        }
    }
}
