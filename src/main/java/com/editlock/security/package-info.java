/**
 * Who may do what: users and PBKDF2 hashes in PostgreSQL, form login for screens and HTTP Basic for
 * the JSON API (one mechanism for both), roles {@code editor} and {@code admin}, the binding of
 * lock ownership at login, the session timeout, the login throttle and the guard every request
 * passes (headers, origin, body limits).
 */
package com.editlock.security;
