/**
 * Who may do what: users and PBKDF2 hashes in PostgreSQL, form login for screens, HTTP Basic and
 * personal tokens for the JSON API, and the company's OpenID Connect provider ({@link
 * com.editlock.security.ProviderLogin}) — all in one authentication mechanism ({@link
 * com.editlock.security.EditlockAuthentication}), so every way in binds a lock owner the same way;
 * roles {@code editor}, {@code admin} and {@code take-over}; people and their disabling; the
 * session timeout, the login throttle and the guard every request passes (headers, origin, body
 * limits).
 *
 * <p>Why single sign-on is not Jakarta Security 4's
 * {@code @OpenIdAuthenticationMechanismDefinition}: it has no PKCE and no back-channel logout, and
 * keeps its tokens and redirects in session state of its own, where Editlock's session must be the
 * lock owner with its caller, roles recheck and disabled check. The flow is written on Connect2id's
 * Nimbus OpenID Connect SDK (the library Payara's own OpenID support validates tokens with), which
 * does the protocol's checks.
 */
package com.editlock.security;
