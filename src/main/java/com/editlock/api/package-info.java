/**
 * The JSON API under {@code /api} for scripts and other clients. Callers log in with HTTP Basic and
 * keep the session cookie: locks taken through the API belong to that HTTP session, exactly like a
 * screen's. Every error is a JSON {@code {"error": "…"}} that says what is wrong; bad input never
 * changes anything and never yields a stack trace.
 */
package com.editlock.api;
