/**
 * The fence around what Editlock does only because of its container's versions; nothing else may
 * touch container or provider classes (kept by {@code LayeringTest}). Each entry: the version, the
 * symptom, how to see it is on, and how it would go.
 *
 * <ul>
 *   <li>{@link com.editlock.container.NoQueryRetry} — EclipseLink 4.0 (Payara 6) retries a read
 *       that failed on a lost connection, twice with a pause: a page waits about 10 s to say the
 *       database is down, against the promised 2 s. On: the start-up log line {@code EclipseLink
 *       query retry off (NoQueryRetry)}; the outage run's "slowest 503" figure. Goes when
 *       EclipseLink's {@code eclipselink.query.retry-attempt-count} property (or a container
 *       setting) can say the same; then drop the {@code eclipselink.session.customizer} line of
 *       {@code persistence.xml}.
 *   <li>{@link com.editlock.container.CspRenderKitFactory} — Mojarra 4.0 (Faces 4.0) cannot put a
 *       nonce on the scripts it writes, so a strict Content-Security-Policy would block them. On:
 *       the start-up log line {@code Faces scripts carry the CSP nonce (CspRenderKitFactory)}; the
 *       browser tests' CSP gate. Goes with Faces 5, whose render kit writes the nonce itself; then
 *       drop the {@code render-kit-factory} line of {@code faces-config.xml}.
 * </ul>
 *
 * <p>Not here because it is an absence, not code: {@code EditlockAuthentication} keeps the session
 * itself instead of using {@code @AutoApplySession} (Payara 6.2025.10 answers one of two
 * simultaneous requests of a session 403, Payara issue 6145); its Javadoc says how that would go.
 */
package com.editlock.container;
