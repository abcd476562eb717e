package com.editlock.security;

/** The two roles; groups in {@code app_user_role} map to them one to one. */
public final class Roles {
    public static final String EDITOR = "editor";
    public static final String ADMIN = "admin";

    private Roles() {}
}
