package com.editlock.security;

import com.editlock.errors.ErrorAnswers;
import com.editlock.errors.TypedValues;
import com.editlock.lock.SessionLocks;
import com.editlock.platform.Settings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.CallerPrincipal;
import jakarta.security.enterprise.authentication.mechanism.http.HttpAuthenticationMechanism;
import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStoreHandler;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.Serializable;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One authentication mechanism for the whole application (Jakarta Security 3 allowed only one;
 * version 4, on Payara 7, allows several, which single sign-on will use):
 *
 * <ul>
 *   <li>the login screen authenticates programmatically ({@code SecurityContext.authenticate} with
 *       a credential);
 *   <li>API clients send HTTP Basic, and keep the session cookie they get back; or they send a
 *       personal API token ({@code Authorization: Bearer}, see {@link ApiTokens}), which is checked
 *       on every request (one SHA-256 and one read) and opens no session;
 *   <li>an unauthenticated request for a protected page is sent to the login screen; for the API it
 *       gets a JSON {@code 401} with a Basic challenge.
 * </ul>
 *
 * At every login the session id changes (no fixation) and the session becomes a new lock owner,
 * with a {@code LockRemover} bound in it and the configured timeout. The session then remembers the
 * caller and their groups, and every later request of the session is authenticated from them.
 *
 * <p>Why not {@code @AutoApplySession}: the session keeps the caller's groups with the time they
 * were read, so a role taken away is noticed within {@code locks.role.recheck.seconds} (below),
 * which {@code @AutoApplySession} cannot do. It was first ruled out on Payara 6.2025.10, where two
 * requests of one session arriving together sometimes saw each other's security state and one was
 * answered {@code 403} (Payara issue 6145, fixed upstream in 2026). Handing the container the
 * caller and groups on every request keeps each request's authentication its own.
 *
 * <p>Failed logins are slowed down by {@link LoginThrottle}; a throttled attempt is answered before
 * the password is checked. The groups remembered in the session are read again from the user
 * directory when they are older than {@code locks.role.recheck.seconds}, so a role taken away by an
 * admin stops working within that time (a user removed from the directory is logged out), and a
 * person an admin disabled is logged out three seconds after what they held was freed ({@link
 * DisabledPeople}). An API {@code 401} carries a Basic challenge only for clients that are not a
 * page's background request, so a browser never pops up a password prompt over a page.
 */
@ApplicationScoped
public class EditlockAuthentication implements HttpAuthenticationMechanism {

    private static final String CALLER = SessionCaller.class.getName();

    /**
     * The request attribute that tells the login screen how long a throttled user must wait (a
     * Duration).
     */
    public static final String RETRY_AFTER = "editlock.loginRetryAfter";

    /**
     * The request attribute that tells the login screen that the user directory could not be
     * reached.
     */
    public static final String DIRECTORY_DOWN = "editlock.directoryDown";

    /** The request attribute that tells the login screen that passwords are switched off. */
    public static final String PASSWORDS_OFF = "editlock.passwordsOff";

    /**
     * Who logged in with a session, their groups (roles), and when the groups were read (epoch
     * millis).
     */
    private record SessionCaller(String login, Set<String> groups, long checkedAt)
            implements Serializable {}

    /** Who logged in with {@code session}, or null for a session nobody logged in with. */
    static String loginOf(HttpSession session) {
        return session.getAttribute(CALLER) instanceof SessionCaller caller ? caller.login() : null;
    }

    @Inject IdentityStoreHandler identityStores;

    @Inject UserDirectory users;

    @Inject Settings settings;

    @Inject LoginThrottle throttle;

    @Inject EditlockIdentityStore directory;

    @Inject DisabledPeople disabled;

    @Inject ApiTokens tokens;

    @Inject BodyReads bodies;

    @Inject LoginDevices devices;

    @Inject ProviderLogin provider;

    @Inject ProviderLogouts logouts;

    @Override
    public AuthenticationStatus validateRequest(
            HttpServletRequest request, HttpServletResponse response, HttpMessageContext context) {
        // This runs before the filters: its own answers (the login redirect, a 401, a 429) need
        // the security headers too.
        RequestGuard.baselineHeaders(request, response);
        if (request.isRequestedSessionIdFromURL()) {
            // Sessions travel in the cookie only (web.xml), yet the container still takes an id
            // from ";jsessionid=" in the address: such an id leaks through logs, bookmarks and
            // Referer, and fixes a session on a victim. Refused before the session is touched.
            try {
                ErrorAnswers.send(
                        request,
                        response,
                        HttpServletResponse.SC_BAD_REQUEST,
                        "A session travels in its cookie only: remove \";jsessionid=…\" from the"
                                + " address.");
            } catch (IOException e) {
                // the client went away; nothing more to tell it
            }
            return AuthenticationStatus.SEND_FAILURE;
        }
        if (!bodies.readForm(request, response)) { // a form's body, read now and counted, so no
            // address can hold the node's workers with slow ones (this runs before anything
            // that reads it, a login included)
            return AuthenticationStatus.SEND_FAILURE;
        }
        Credential credential = context.getAuthParameters().getCredential();
        if (credential != null) { // the login screen: a new login, even in a session that had one
            return login(credential, request, response, context);
        }
        if (request.getRequestURI().equals(request.getContextPath() + ProviderLogin.CALLBACK)) {
            return providerLogin(request, response, context);
        }
        if (isLiveStream(
                request)) { // public; it must not touch the session, or an open page would keep it
            // alive
            return context.doNothing();
        }
        String token = bearerToken(request);
        if (token != null) { // a script with an API token: every request on its own, no session
            return tokenLogin(token, request, response, context);
        }
        HttpSession existing = request.getSession(false);
        if (existing != null && existing.getAttribute(CALLER) instanceof SessionCaller remembered) {
            // Logged in with this session: an API client's Basic header is not checked again (its
            // locks belong to
            // this session, and a new login would start a new owner).
            SessionCaller caller = rechecked(existing, remembered);
            if (caller != null) {
                return context.notifyContainerAboutLogin(
                        new CallerPrincipal(caller.login()), caller.groups());
            }
        }
        credential = basicCredential(request);
        if (credential != null) {
            return login(credential, request, response, context);
        }
        if (!context.isProtected()) {
            return context.doNothing();
        }
        if (isApi(request)) {
            return unauthorized(
                    request,
                    response,
                    "Log in with HTTP Basic (user and password), then keep the session "
                            + "cookie.");
        }
        Map<String, String> typed = TypedValues.of(request);
        if (!typed.isEmpty()) { // an editor's Save after its session ended: a redirect would lose
            // what was typed
            return sessionEnded(request, response, typed);
        }
        // Back to the page that was asked for after login (a deep link to a configurator, say).
        String asked =
                request.getRequestURI().substring(request.getContextPath().length())
                        + (request.getQueryString() == null ? "" : "?" + request.getQueryString());
        return context.redirect(
                request.getContextPath()
                        + "/login.xhtml?next="
                        + URLEncoder.encode(asked, StandardCharsets.UTF_8));
    }

    /**
     * The session's caller, with groups read again when they are old; null when the user no longer
     * exists.
     */
    private SessionCaller rechecked(HttpSession session, SessionCaller caller) {
        if (disabled.isDisabled(caller.login()) || logouts.loggedOut(caller.login(), session)) {
            // an admin disabled them, or they logged out at the provider: the session ends at its
            // next request
            session.invalidate();
            return null;
        }
        long now = System.currentTimeMillis();
        if (now - caller.checkedAt() < settings.roleRecheckSeconds() * 1000L) {
            return caller;
        }
        Optional<Set<String>> groups;
        try {
            groups = directory.groupsOf(caller.login());
        } catch (
                RuntimeException
                        e) { // the directory cannot answer now: keep what the session knows, ask
            // again later
            return caller;
        }
        if (groups.isEmpty()) {
            session.invalidate(); // the user was removed: the session ends, and with it its locks
            return null;
        }
        directory.seen(caller.login());
        SessionCaller fresh = new SessionCaller(caller.login(), groups.get(), now);
        session.setAttribute(CALLER, fresh);
        return fresh;
    }

    private AuthenticationStatus login(
            Credential credential,
            HttpServletRequest request,
            HttpServletResponse response,
            HttpMessageContext context) {
        if (!settings.passwords()) { // only the provider logs people in here
            if (isApi(request)) {
                return unauthorized(
                        request,
                        response,
                        "Passwords are switched off here: log in through "
                                + provider.name()
                                + " in a browser, or send an API token (Authorization: Bearer).");
            }
            request.setAttribute(PASSWORDS_OFF, Boolean.TRUE);
            return context.isAuthenticationRequest()
                    ? AuthenticationStatus.SEND_FAILURE
                    : context.doNothing();
        }
        Credential normalized = normalized(credential);
        String name = normalized instanceof UsernamePasswordCredential up ? up.getCaller() : "";
        String address = ClientAddress.of(request, settings.trustedProxies());
        // A browser this person logged in with before is not held back by others' failures
        // (LoginDevices): not by its address's, nor by a guesser's at this name from there.
        boolean knownDevice = devices.trusted(request, name);
        if (!knownDevice) {
            Duration wait = throttle.wait(name, address);
            if (!wait.isZero()) {
                return tooManyAttempts(request, response, context, wait);
            }
        }
        CredentialValidationResult result;
        try {
            result = identityStores.validate(normalized);
        } catch (RuntimeException e) { // the user directory (the database) cannot answer now
            return directoryDown(request, response, context);
        }
        if (result.getStatus() != CredentialValidationResult.Status.VALID) {
            throttle.failed(name, address);
            if (knownDevice) {
                devices.failed(request, name);
            }
            if (isApi(request)) {
                return unauthorized(request, response, "Wrong user name or password.");
            }
            return context.isAuthenticationRequest()
                    ? AuthenticationStatus.SEND_FAILURE
                    : context.doNothing();
        }
        if (!knownDevice) { // a known device's success clears no count a guesser could use
            throttle.succeeded(name, address);
        }
        String login = result.getCallerPrincipal().getName();
        String displayName;
        try {
            displayName = users.displayName(login);
        } catch (RuntimeException e) {
            return directoryDown(request, response, context);
        }
        loggedIn(request, login, displayName, result.getCallerGroups());
        if (!isApi(request)) { // a browser's login screen: it keeps (or now gets) a device cookie
            devices.succeeded(request, response, login, knownDevice);
        }
        return context.notifyContainerAboutLogin(result);
    }

    /**
     * The provider's answer to a sign-in begun on the login page ({@link ProviderLogin}): checked,
     * and the person it names logged in as with a password (a new session id, a new lock owner),
     * the ID token kept for the logout at the provider. A refusal is a page that says why, and
     * changes nothing.
     */
    private AuthenticationStatus providerLogin(
            HttpServletRequest request, HttpServletResponse response, HttpMessageContext context) {
        ProviderLogin.Result result;
        try {
            result = provider.finish(request);
        } catch (ProviderLogin.Refused e) {
            try {
                ErrorAnswers.say(request, response, e.status(), e.key(), e.args());
            } catch (IOException gone) {
                // the client went away; nothing more to tell it
            }
            return AuthenticationStatus.SEND_FAILURE;
        } catch (RuntimeException e) { // the user directory (the database) cannot answer now
            return directoryDown(request, response, context);
        }
        String login = result.person().login();
        Set<String> groups = result.person().roles();
        HttpSession session = loggedIn(request, login, result.person().name(), groups);
        session.setAttribute(ProviderLogin.ID_TOKEN, result.idToken());
        session.setAttribute(
                ProviderLogin.PROVIDER_SESSION,
                new ProviderLogin.ProviderSession(result.sid(), System.currentTimeMillis()));
        directory.seen(login);
        request.setAttribute(ProviderLogin.NEXT, result.next());
        return context.notifyContainerAboutLogin(new CallerPrincipal(login), groups);
    }

    /**
     * The session of a login, whichever way it came: a new session id (no fixation), a new lock
     * owner, the caller and groups remembered, the configured timeout.
     */
    private HttpSession loggedIn(
            HttpServletRequest request,
            String login,
            String displayName,
            java.util.Collection<String> groups) {
        if (request.getSession(false) != null) {
            request.changeSessionId();
        }
        HttpSession session = request.getSession(true);
        SessionLocks.bind(session, login, displayName);
        session.setAttribute(
                CALLER, new SessionCaller(login, Set.copyOf(groups), System.currentTimeMillis()));
        session.setMaxInactiveInterval(settings.sessionTimeoutSeconds());
        return session;
    }

    /**
     * A request with {@code Authorization: Bearer}: the API token names the caller and the lock
     * owner for this request only. A valid token always gets in; one that is not valid counts
     * against the client address's allowance for tokens (kept apart from its password logins, so
     * made-up tokens keep neither a colleague's token nor anyone's password out).
     */
    private AuthenticationStatus tokenLogin(
            String token,
            HttpServletRequest request,
            HttpServletResponse response,
            HttpMessageContext context) {
        if (!isApi(request)) {
            return bearerRefused(
                    response, "API tokens open the JSON API (/api/…) only; pages need a login.");
        }
        String address = ClientAddress.of(request, settings.trustedProxies());
        Optional<ApiTokens.Caller> caller;
        try {
            caller = tokens.check(token); // first: a valid token gets in whatever others sent
        } catch (RuntimeException e) {
            return directoryDown(request, response, context);
        }
        if (caller.isEmpty()) {
            Duration wait = throttle.tokenWait(address);
            if (!wait.isZero()) { // not counted again: waiting is refused, not recorded
                return tooManyAttempts(request, response, context, wait);
            }
            throttle.tokenFailed(address);
            return bearerRefused(
                    response,
                    "This API token is unknown, expired or revoked. Log in with your password "
                            + "and make a new one (POST /api/tokens).");
        }
        request.setAttribute(CurrentOwner.TOKEN_OWNER, caller.get().owner());
        request.setAttribute(CurrentOwner.TOKEN_ID, caller.get().tokenId());
        return context.notifyContainerAboutLogin(
                new CallerPrincipal(caller.get().owner().login()), caller.get().groups());
    }

    private static String bearerToken(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        return header.substring(7).trim();
    }

    private static AuthenticationStatus bearerRefused(
            HttpServletResponse response, String message) {
        response.setHeader(
                "WWW-Authenticate", "Bearer realm=\"Editlock\", error=\"invalid_token\"");
        return json(response, HttpServletResponse.SC_UNAUTHORIZED, message);
    }

    private static Credential normalized(Credential credential) {
        if (credential instanceof UsernamePasswordCredential up) {
            return new UsernamePasswordCredential(
                    up.getCaller().trim().toLowerCase(Locale.ROOT), up.getPassword());
        }
        return credential;
    }

    private static UsernamePasswordCredential basicCredential(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        try {
            String decoded =
                    new String(
                            Base64.getDecoder().decode(header.substring(6).trim()),
                            StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            if (colon <= 0) {
                return new UsernamePasswordCredential("", "");
            }
            return new UsernamePasswordCredential(
                    decoded.substring(0, colon), decoded.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            return new UsernamePasswordCredential("", "");
        }
    }

    /**
     * The pages' event stream: its tabs are matched to the session cookie without opening the
     * session.
     */
    private static boolean isLiveStream(HttpServletRequest request) {
        return request.getRequestURI().equals(request.getContextPath() + "/live");
    }

    static boolean isApi(HttpServletRequest request) {
        return request.getRequestURI().startsWith(request.getContextPath() + "/api/");
    }

    private static AuthenticationStatus directoryDown(
            HttpServletRequest request, HttpServletResponse response, HttpMessageContext context) {
        if (context.isAuthenticationRequest() && !isApi(request)) {
            request.setAttribute(DIRECTORY_DOWN, Boolean.TRUE);
            return AuthenticationStatus.SEND_FAILURE;
        }
        response.setHeader("Retry-After", "2");
        return json(
                response,
                503,
                "Logins cannot be checked right now (the database does not answer); nothing was "
                        + "changed. Try again in a moment.");
    }

    private AuthenticationStatus tooManyAttempts(
            HttpServletRequest request,
            HttpServletResponse response,
            HttpMessageContext context,
            Duration wait) {
        long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
        if (context.isAuthenticationRequest()
                && !isApi(request)) { // the login screen says it next to the form
            request.setAttribute(RETRY_AFTER, Duration.ofSeconds(seconds));
            return AuthenticationStatus.SEND_FAILURE;
        }
        response.setHeader("Retry-After", String.valueOf(seconds));
        return json(
                response,
                429,
                "Too many failed logins for this user or from this address: try again in "
                        + seconds
                        + " s.");
    }

    private static AuthenticationStatus sessionEnded(
            HttpServletRequest request, HttpServletResponse response, Map<String, String> typed) {
        response.setHeader("WWW-Authenticate", "Session realm=\"Editlock\"");
        try {
            ErrorAnswers.sayWithTyped(
                    request,
                    response,
                    HttpServletResponse.SC_UNAUTHORIZED,
                    "error.ended.title",
                    "error.ended.typed",
                    typed);
        } catch (IOException e) {
            // the client went away; nothing more to tell it
        }
        return AuthenticationStatus.SEND_FAILURE;
    }

    private static AuthenticationStatus unauthorized(
            HttpServletRequest request, HttpServletResponse response, String message) {
        // A page's background request (fetch, Ajax) must not make the browser pop up its password
        // prompt.
        String mode = request.getHeader("Sec-Fetch-Mode");
        boolean background =
                request.getHeader("X-Requested-With") != null
                        || (mode != null && !mode.equals("navigate"));
        response.setHeader(
                "WWW-Authenticate",
                background
                        ? "Session realm=\"Editlock\""
                        : "Basic realm=\"Editlock\", charset=\"UTF-8\"");
        return json(response, HttpServletResponse.SC_UNAUTHORIZED, message);
    }

    private static AuthenticationStatus json(
            HttpServletResponse response, int status, String message) {
        try {
            response.setStatus(status);
            response.setHeader("Cache-Control", "no-store");
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            response.getWriter().write(ErrorAnswers.errorJson(message));
        } catch (IOException e) {
            // the client went away; nothing more to tell it
        }
        return AuthenticationStatus.SEND_FAILURE;
    }
}
