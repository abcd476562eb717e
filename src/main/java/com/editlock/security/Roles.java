package com.editlock.security;

/**
 * The roles; groups in {@code app_user_role} map to them one to one. {@code take-over} is given
 * beside {@code editor}: it lets a person take a lock from its holder, with a reason (admins may
 * too).
 */
public final class Roles {
    public static final String EDITOR = "editor";
    public static final String ADMIN = "admin";
    public static final String TAKE_OVER = "take-over";

    private Roles() {}
}
