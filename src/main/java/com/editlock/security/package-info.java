/**
 * Who may do what: users and PBKDF2 hashes in PostgreSQL, form login for screens and HTTP Basic for the JSON API
 * (one mechanism for both), roles {@code editor} and {@code admin}, and the binding of lock ownership at login.
 */
package com.editlock.security;
