/**
 * The fence around what Editlock does only because of its container's versions; nothing else may
 * touch container or provider classes (kept by {@code LayeringTest}). Each entry: the version, the
 * symptom, how to see it is on, and how it would go. Re-judged on Payara Micro 7.2026.11 (Mojarra
 * 4.1.18, EclipseLink 5.0.1, Grizzly 5.0.3); docs/design.md keeps the list of what went.
 *
 * <ul>
 *   <li>{@link com.editlock.container.NoQueryRetry} — stays on 7.2026.11: EclipseLink 5.0.1 still
 *       retries a read that failed on a lost connection, twice with a pause (a page would wait
 *       about 10 s to say the database is down, against the promised 2 s), and its persistence unit
 *       properties still have no retry count. On: the start-up log line {@code EclipseLink query
 *       retry off (NoQueryRetry)}; the outage run's "slowest 503" figure. Goes when such a property
 *       (or a container setting) exists; then drop the {@code eclipselink.session.customizer} line
 *       of {@code persistence.xml}.
 *   <li>{@link com.editlock.container.CspRenderKitFactory} — stays on 7.2026.11: Mojarra 4.1.18's
 *       own nonce ({@code com.sun.faces.enableCspNonce}) comes with its own {@code
 *       Content-Security-Policy} header on Faces views only, while Editlock sends one policy with
 *       one nonce on every answer (pages, error pages, the API, the redirect to login); two headers
 *       are both enforced, so the two nonces would block each other's scripts. On: the start-up log
 *       line {@code Faces scripts carry the CSP nonce (CspRenderKitFactory)}; the browser tests'
 *       CSP gate. Goes with Faces 5, whose {@code ResourceHandler.getCurrentNonce} lets the filter
 *       send Faces' nonce in its own header; then drop the {@code render-kit-factory} line of
 *       {@code faces-config.xml}.
 *   <li>{@link com.editlock.container.FacesScriptWithoutVersion} — new on 7.2026.11: Mojarra 4.1.18
 *       puts its implementation version into the address of Faces' own script ({@code
 *       v=4.1.18.payara-p1}), naming the server product and release in every page; Editlock's
 *       answers name none (HostileInputIT). On: the start-up log line {@code Faces' script address
 *       carries no version (FacesScriptWithoutVersion)}; pages load {@code faces.js} without {@code
 *       v=}. Goes when Mojarra can be told not to (no setting in 4.1.18); then drop the {@code
 *       resource-handler} line of {@code faces-config.xml}.
 * </ul>
 *
 * <p>Not here because it is an absence, not code: {@code EditlockAuthentication} keeps the caller
 * in the session itself instead of using {@code @AutoApplySession}. It stays on 7.2026.11 for a
 * reason of its own: the session keeps the caller's groups with their age, so a role an admin takes
 * away stops working within {@code locks.role.recheck.seconds}, which {@code @AutoApplySession}
 * cannot do (the Payara 6 race that first ruled it out, Payara issue 6145, is fixed upstream).
 */
package com.editlock.container;
