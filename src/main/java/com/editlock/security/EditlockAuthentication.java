package com.editlock.security;

import com.editlock.lock.SessionLocks;
import com.editlock.platform.Database;
import com.editlock.platform.Settings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.authentication.mechanism.http.HttpAuthenticationMechanism;
import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.security.enterprise.CallerPrincipal;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.DatabaseIdentityStoreDefinition;
import jakarta.security.enterprise.identitystore.IdentityStoreHandler;
import jakarta.security.enterprise.identitystore.Pbkdf2PasswordHash;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.Serializable;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Set;

/**
 * One authentication mechanism for the whole application, because Jakarta Security 3 allows only one:
 * <ul>
 * <li>the login screen authenticates programmatically ({@code SecurityContext.authenticate} with a credential);</li>
 * <li>API clients send HTTP Basic, and keep the session cookie they get back;</li>
 * <li>an unauthenticated request for a protected page is sent to the login screen; for the API it gets a JSON
 * {@code 401} with a Basic challenge.</li>
 * </ul>
 * At every login the session id changes (no fixation) and the session becomes a new lock owner, with a
 * {@code LockRemover} bound in it and the configured timeout. The session then remembers the caller and their groups,
 * and every later request of the session is authenticated from them.
 *
 * <p>Why not {@code @AutoApplySession}: on Payara 6.2025.10 it lets two requests of one session that arrive together
 * (a page's heartbeat, its live refresh, the goodbye beacon and the next page) sometimes see each other's security
 * state, and one of them is answered {@code 403} (Payara issue 6145, fixed upstream in 2026). Handing the container
 * the caller and groups on every request keeps each request's authentication its own.
 */
@DatabaseIdentityStoreDefinition(
        dataSourceLookup = Database.JNDI_NAME,
        callerQuery = "select password_hash from app_user where login = ?",
        groupsQuery = "select role from app_user_role where login = ?",
        hashAlgorithm = Pbkdf2PasswordHash.class)
@ApplicationScoped
public class EditlockAuthentication implements HttpAuthenticationMechanism {

    private static final String CALLER = SessionCaller.class.getName();

    /** Who logged in with a session, and their groups (roles). */
    private record SessionCaller(String login, Set<String> groups) implements Serializable {
    }

    @Inject
    IdentityStoreHandler identityStores;

    @Inject
    UserDirectory users;

    @Inject
    Settings settings;

    @Override
    public AuthenticationStatus validateRequest(HttpServletRequest request, HttpServletResponse response,
            HttpMessageContext context) {
        Credential credential = context.getAuthParameters().getCredential();
        if (credential != null) { // the login screen: a new login, even in a session that had one
            return login(credential, request, response, context);
        }
        HttpSession existing = request.getSession(false);
        if (existing != null && existing.getAttribute(CALLER) instanceof SessionCaller caller) {
            // Logged in with this session: an API client's Basic header is not checked again (its locks belong to
            // this session, and a new login would start a new owner).
            return context.notifyContainerAboutLogin(new CallerPrincipal(caller.login()), caller.groups());
        }
        credential = basicCredential(request);
        if (credential != null) {
            return login(credential, request, response, context);
        }
        if (!context.isProtected()) {
            return context.doNothing();
        }
        if (isApi(request)) {
            return unauthorized(response, "Log in with HTTP Basic (user and password), then keep the session cookie.");
        }
        // Back to the page that was asked for after login (a deep link to a configurator, say).
        String asked = request.getRequestURI().substring(request.getContextPath().length())
                + (request.getQueryString() == null ? "" : "?" + request.getQueryString());
        return context.redirect(request.getContextPath() + "/login.xhtml?next="
                + URLEncoder.encode(asked, StandardCharsets.UTF_8));
    }

    private AuthenticationStatus login(Credential credential, HttpServletRequest request,
            HttpServletResponse response, HttpMessageContext context) {
        CredentialValidationResult result = identityStores.validate(normalized(credential));
        if (result.getStatus() != CredentialValidationResult.Status.VALID) {
            if (isApi(request)) {
                return unauthorized(response, "Wrong user name or password.");
            }
            return context.isAuthenticationRequest() ? AuthenticationStatus.SEND_FAILURE : context.doNothing();
        }
        if (request.getSession(false) != null) {
            request.changeSessionId();
        }
        HttpSession session = request.getSession(true);
        String login = result.getCallerPrincipal().getName();
        SessionLocks.bind(session, login, users.displayName(login));
        session.setAttribute(CALLER, new SessionCaller(login, Set.copyOf(result.getCallerGroups())));
        session.setMaxInactiveInterval(settings.sessionTimeoutSeconds());
        return context.notifyContainerAboutLogin(result);
    }

    private static Credential normalized(Credential credential) {
        if (credential instanceof UsernamePasswordCredential up) {
            return new UsernamePasswordCredential(up.getCaller().trim().toLowerCase(Locale.ROOT), up.getPassword());
        }
        return credential;
    }

    private static UsernamePasswordCredential basicCredential(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        try {
            String decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            if (colon <= 0) {
                return new UsernamePasswordCredential("", "");
            }
            return new UsernamePasswordCredential(decoded.substring(0, colon), decoded.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            return new UsernamePasswordCredential("", "");
        }
    }

    static boolean isApi(HttpServletRequest request) {
        return request.getRequestURI().startsWith(request.getContextPath() + "/api/");
    }

    private static AuthenticationStatus unauthorized(HttpServletResponse response, String message) {
        try {
            response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            response.setHeader("WWW-Authenticate", "Basic realm=\"Editlock\", charset=\"UTF-8\"");
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            response.getWriter().write("{\"error\":\"" + message.replace("\"", "\\\"") + "\"}");
        } catch (IOException e) {
            // the client went away; nothing more to tell it
        }
        return AuthenticationStatus.SEND_FAILURE;
    }
}
