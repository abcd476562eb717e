package com.editlock.security;

import com.editlock.platform.PlainText;
import com.editlock.platform.Settings;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.ClientAuthentication;
import com.nimbusds.oauth2.sdk.auth.ClientAuthenticationMethod;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.ClientSecretPost;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.AuthenticationErrorResponse;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.AuthenticationResponse;
import com.nimbusds.openid.connect.sdk.AuthenticationResponseParser;
import com.nimbusds.openid.connect.sdk.AuthenticationSuccessResponse;
import com.nimbusds.openid.connect.sdk.LogoutRequest;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.claims.LogoutTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import com.nimbusds.openid.connect.sdk.validators.LogoutTokenValidator;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Logging in through the company's OpenID Connect provider ({@link Settings#provider()}): the
 * authorization code flow with PKCE ({@code S256}), {@code state} and {@code nonce}.
 *
 * <ol>
 *   <li>{@link #start} remembers a fresh state, nonce and code verifier in the visitor's session
 *       (the five newest sign-ins begun there, each for ten minutes) and answers the provider's
 *       address to send the browser to.
 *   <li>{@link #finish} takes the provider's answer: its state must be one begun in this session
 *       (and is used up, so the same answer twice is refused), the code is exchanged at the token
 *       endpoint with the client secret and the verifier, and the ID token must be signed by the
 *       provider's published keys, issued by the configured issuer, meant for this client and carry
 *       the nonce. The person's groups ({@code LOCKS_OIDC_ROLES_CLAIM}) give their roles through
 *       {@code LOCKS_OIDC_ROLE_MAP}; a person with none of the mapped groups is refused. Then
 *       {@link People#fromProvider} creates them at their first login, or refuses them if an admin
 *       disabled them.
 * </ol>
 *
 * Every refusal is a {@link Refused} with a sentence of the screens' bundle and changes nothing.
 * The provider's discovery document is read at the first sign-in (not at boot, so a provider that
 * is down does not stop the node), again an hour later, and at the next sign-in after a read that
 * failed. The client secret is never logged: {@link Settings.Provider#toString()} leaves it out.
 */
@ApplicationScoped
public class ProviderLogin {

    private static final Logger LOG = Logger.getLogger(ProviderLogin.class.getName());

    /** Where the provider sends the browser back, under the application's path. */
    public static final String CALLBACK = "/oidc/callback";

    /** Where the login page's button starts a sign-in. */
    public static final String START = "/oidc/login";

    /** The request attribute that names where a browser just logged in goes next. */
    public static final String NEXT = "editlock.providerLogin.next";

    private static final String PENDING = "editlock.providerLogin.pending";

    /** Guards the read-change-write of a session's begun sign-ins. */
    private static final Object LOCK = new Object();

    /** The session attribute that keeps a provider login's ID token, for the logout at it. */
    static final String ID_TOKEN = "editlock.providerLogin.idToken";

    /** The session attribute that keeps the provider's session id and the login's time. */
    static final String PROVIDER_SESSION = "editlock.providerLogin.session";

    /** Where the provider's back-channel logout is sent. */
    public static final String BACK_CHANNEL = "/oidc/backchannel-logout";

    /** The provider's session a session was logged in through: its id (or null) and when. */
    record ProviderSession(String sid, long since) implements Serializable {}

    /** How many sign-ins begun in one session are remembered (a few tabs). */
    static final int MAX_PENDING = 5;

    /** How long a begun sign-in may take, in milliseconds. */
    static final long PENDING_MILLIS = 10 * 60 * 1000L;

    private static final int TIMEOUT_MILLIS = 5_000;

    private static final long METADATA_MILLIS = 60 * 60 * 1000L;

    /** A sign-in begun in a session: what its answer must match. */
    record Pending(String nonce, String verifier, String next, String redirectUri, long at)
            implements Serializable {}

    /** A provider login that was refused: the sentence's key and its arguments, and a status. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;
        private final String key;
        private final transient Object[] args;

        Refused(int status, String key, Object... args) {
            super(key);
            this.status = status;
            this.key = key;
            this.args = args.clone();
        }

        public int status() {
            return status;
        }

        public String key() {
            return key;
        }

        public Object[] args() {
            return args.clone();
        }
    }

    /**
     * Who logged in (with the roles the provider's groups gave), where to go, the ID token (for the
     * logout at the provider) and the provider's session id, if it gave one (for its back-channel
     * logout).
     */
    public record Result(People.Person person, String next, String idToken, String sid) {}

    @Inject Settings settings;

    @Inject People people;

    private volatile OIDCProviderMetadata metadata;

    private volatile long metadataAt;

    private final Map<JWSAlgorithm, IDTokenValidator> validators = new ConcurrentHashMap<>();

    /** The back-channel logout tokens this node took in the last ten minutes, by their id. */
    private final Map<String, Long> seenLogouts = new ConcurrentHashMap<>();

    /** Whether a provider is configured. */
    public boolean configured() {
        return settings.provider().isPresent();
    }

    /** The provider's name, for the login page's button. */
    public String name() {
        return settings.provider().map(Settings.Provider::name).orElse("");
    }

    /**
     * The provider's address to send the browser to, to sign in and come back to {@code next} (a
     * path of this application; anything else is replaced by the start page).
     */
    public URI start(HttpServletRequest request, String next) throws Refused {
        Settings.Provider provider = provider();
        OIDCProviderMetadata meta = metadata(provider);
        State state = new State();
        Nonce nonce = new Nonce();
        CodeVerifier verifier = new CodeVerifier();
        String redirectUri = redirectUri(request, provider);
        HttpSession session = request.getSession(true);
        synchronized (LOCK) {
            Map<String, Pending> pending = pending(session);
            pending.put(
                    state.getValue(),
                    new Pending(
                            nonce.getValue(),
                            verifier.getValue(),
                            safeNext(next),
                            redirectUri,
                            System.currentTimeMillis()));
            while (pending.size() > MAX_PENDING) {
                pending.remove(pending.keySet().iterator().next());
            }
            session.setAttribute(PENDING, pending);
        }
        return new AuthenticationRequest.Builder(
                        new ResponseType(ResponseType.Value.CODE),
                        new Scope("openid", "profile", "email"),
                        new ClientID(provider.clientId()),
                        URI.create(redirectUri))
                .endpointURI(meta.getAuthorizationEndpointURI())
                .state(state)
                .nonce(nonce)
                .codeChallenge(verifier, CodeChallengeMethod.S256)
                .build()
                .toURI();
    }

    /** The provider's answer at {@link #CALLBACK}, checked; the person it names, logged in. */
    public Result finish(HttpServletRequest request) throws Refused {
        Settings.Provider provider = provider();
        AuthenticationResponse response;
        try {
            response =
                    AuthenticationResponseParser.parse(
                            new URI(
                                    request.getRequestURL()
                                            + (request.getQueryString() == null
                                                    ? ""
                                                    : "?" + request.getQueryString())));
        } catch (URISyntaxException | com.nimbusds.oauth2.sdk.ParseException e) {
            throw new Refused(400, "sso.error.answer");
        }
        Pending pending = usedUp(request, response.getState());
        if (!response.indicatesSuccess()) {
            ErrorObject error = ((AuthenticationErrorResponse) response).getErrorObject();
            LOG.info(
                    () ->
                            "The provider refused a sign-in: "
                                    + (PlainText.isPlain(error.getCode())
                                            ? error.getCode()
                                            : "(a code with control characters)"));
            throw new Refused(403, "sso.error.provider", String.valueOf(error.getCode()));
        }
        AuthenticationSuccessResponse success = response.toSuccessResponse();
        if (success.getIssuer() != null
                && !success.getIssuer().getValue().equals(provider.issuer())) {
            throw new Refused(400, "sso.error.issuer");
        }
        AuthorizationCode code = success.getAuthorizationCode();
        if (code == null) {
            throw new Refused(400, "sso.error.answer");
        }
        OIDCProviderMetadata meta = metadata(provider);
        JWT idToken = exchange(provider, meta, code, pending);
        IDTokenClaimsSet claims = validated(provider, meta, idToken, pending);
        Set<String> roles = roles(provider, claims);
        if (roles.isEmpty()) {
            throw new Refused(403, "sso.error.noRole", provider.rolesClaim());
        }
        String subject = claims.getSubject().getValue();
        String name = firstOf(claims, "name", "preferred_username", "email");
        People.Person person;
        try {
            person =
                    people.fromProvider(
                            provider.issuer(),
                            subject,
                            login(claims),
                            name == null ? subject : name,
                            roles);
        } catch (People.PersonException e) {
            throw new Refused(e.status(), e.key(), e.args());
        }
        return new Result(
                person,
                pending.next(),
                idToken.getParsedString(),
                claims.getSessionID() == null ? null : claims.getSessionID().getValue());
    }

    /**
     * The provider's address that ends a person's session there too (RP-initiated logout) and sends
     * them back to {@code after}, or empty when the provider has none.
     */
    public Optional<URI> logoutAt(String idToken, URI after) {
        Optional<Settings.Provider> provider = settings.provider();
        if (provider.isEmpty() || idToken == null) {
            return Optional.empty();
        }
        try {
            OIDCProviderMetadata meta = metadata(provider.get());
            if (meta.getEndSessionEndpointURI() == null) {
                return Optional.empty();
            }
            return Optional.of(
                    new LogoutRequest(
                                    meta.getEndSessionEndpointURI(),
                                    JWTParser.parse(idToken),
                                    after,
                                    null)
                            .toURI());
        } catch (Refused | java.text.ParseException e) {
            LOG.log(Level.INFO, "No logout at the provider: " + e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * The person a back-channel logout token names, and the provider session it ends (null: all of
     * theirs): the token must be signed by the provider's published keys, issued by it for this
     * client, carry the back-channel logout event and no nonce, and not have been seen before on
     * this node.
     */
    public record LoggedOut(String login, String sid) {}

    public LoggedOut backChannel(String logoutToken) throws Refused {
        Settings.Provider provider = provider();
        OIDCProviderMetadata meta = metadata(provider);
        JWT token;
        try {
            token = JWTParser.parse(logoutToken == null ? "" : logoutToken);
        } catch (java.text.ParseException e) {
            throw new Refused(400, "sso.error.logoutToken");
        }
        JWSAlgorithm alg = token.getHeader().getAlgorithm() instanceof JWSAlgorithm a ? a : null;
        if (alg == null || !JWSAlgorithm.Family.SIGNATURE.contains(alg)) {
            throw new Refused(400, "sso.error.logoutToken");
        }
        LogoutTokenClaimsSet claims;
        try {
            claims =
                    new LogoutTokenValidator(
                                    new Issuer(provider.issuer()),
                                    new ClientID(provider.clientId()),
                                    alg,
                                    meta.getJWKSetURI().toURL(),
                                    new DefaultResourceRetriever(TIMEOUT_MILLIS, TIMEOUT_MILLIS))
                            .validate(token);
        } catch (BadJOSEException | JOSEException | java.net.MalformedURLException e) {
            LOG.info(() -> "A back-channel logout token was refused: " + e.getMessage());
            throw new Refused(400, "sso.error.logoutToken");
        }
        String jti = claims.getJWTID() == null ? null : claims.getJWTID().getValue();
        long now = System.currentTimeMillis();
        seenLogouts.values().removeIf(at -> now - at > PENDING_MILLIS);
        if (jti == null || seenLogouts.putIfAbsent(jti, now) != null) {
            throw new Refused(400, "sso.error.logoutToken");
        }
        String sid = claims.getSessionID() == null ? null : claims.getSessionID().getValue();
        String login =
                claims.getSubject() == null
                        ? null
                        : people.linkedLogin(provider.issuer(), claims.getSubject().getValue());
        return new LoggedOut(login, sid);
    }

    /** The provider's ID token of a session logged in through it, or null. */
    public static String idTokenOf(HttpSession session) {
        return session == null ? null : (String) session.getAttribute(ID_TOKEN);
    }

    private Settings.Provider provider() throws Refused {
        return settings.provider().orElseThrow(() -> new Refused(404, "sso.error.off"));
    }

    private OIDCProviderMetadata metadata(Settings.Provider provider) throws Refused {
        OIDCProviderMetadata known = metadata;
        if (known != null && System.currentTimeMillis() - metadataAt < METADATA_MILLIS) {
            return known;
        }
        try {
            OIDCProviderMetadata read =
                    OIDCProviderMetadata.resolve(
                            new Issuer(provider.issuer()), TIMEOUT_MILLIS, TIMEOUT_MILLIS);
            metadata = read;
            metadataAt = System.currentTimeMillis();
            validators.clear();
            return read;
        } catch (com.nimbusds.oauth2.sdk.GeneralException | IOException e) {
            LOG.warning(
                    "The OpenID provider "
                            + provider.issuer()
                            + " could not be read: "
                            + e.getMessage());
            throw new Refused(503, "sso.error.unreachable");
        }
    }

    private JWT exchange(
            Settings.Provider provider,
            OIDCProviderMetadata meta,
            AuthorizationCode code,
            Pending pending)
            throws Refused {
        ClientID client = new ClientID(provider.clientId());
        Secret secret = new Secret(provider.clientSecret());
        List<ClientAuthenticationMethod> methods = meta.getTokenEndpointAuthMethods();
        ClientAuthentication auth =
                methods != null
                                && !methods.contains(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                                && methods.contains(ClientAuthenticationMethod.CLIENT_SECRET_POST)
                        ? new ClientSecretPost(client, secret)
                        : new ClientSecretBasic(client, secret);
        TokenRequest request =
                new TokenRequest(
                        meta.getTokenEndpointURI(),
                        auth,
                        new AuthorizationCodeGrant(
                                code,
                                URI.create(pending.redirectUri()),
                                new CodeVerifier(pending.verifier())));
        TokenResponse response;
        try {
            HTTPRequest http = request.toHTTPRequest();
            http.setConnectTimeout(TIMEOUT_MILLIS);
            http.setReadTimeout(TIMEOUT_MILLIS);
            response = OIDCTokenResponseParser.parse(http.send());
        } catch (IOException | com.nimbusds.oauth2.sdk.ParseException e) {
            LOG.warning("The OpenID provider's token endpoint failed: " + e.getMessage());
            throw new Refused(503, "sso.error.unreachable");
        }
        if (!response.indicatesSuccess()) {
            ErrorObject error = response.toErrorResponse().getErrorObject();
            LOG.info(() -> "The provider refused a code: " + error.getCode());
            throw new Refused(400, "sso.error.code");
        }
        JWT idToken =
                ((OIDCTokenResponse) response.toSuccessResponse()).getOIDCTokens().getIDToken();
        if (idToken == null) {
            throw new Refused(400, "sso.error.token", "no ID token");
        }
        return idToken;
    }

    private IDTokenClaimsSet validated(
            Settings.Provider provider, OIDCProviderMetadata meta, JWT idToken, Pending pending)
            throws Refused {
        JWSAlgorithm alg = idToken.getHeader().getAlgorithm() instanceof JWSAlgorithm a ? a : null;
        List<JWSAlgorithm> offered = meta.getIDTokenJWSAlgs();
        if (alg == null
                || !JWSAlgorithm.Family.SIGNATURE.contains(alg)
                || (offered != null && !offered.contains(alg))) {
            throw new Refused(400, "sso.error.token", "signed with " + alg);
        }
        IDTokenValidator validator =
                validators.computeIfAbsent(
                        alg,
                        a -> {
                            try {
                                return new IDTokenValidator(
                                        new Issuer(provider.issuer()),
                                        new ClientID(provider.clientId()),
                                        a,
                                        meta.getJWKSetURI().toURL(),
                                        new DefaultResourceRetriever(
                                                TIMEOUT_MILLIS, TIMEOUT_MILLIS));
                            } catch (java.net.MalformedURLException e) {
                                throw new IllegalStateException(e);
                            }
                        });
        try {
            return validator.validate(idToken, new Nonce(pending.nonce()));
        } catch (BadJOSEException e) {
            String why = e.getMessage() == null ? "" : e.getMessage();
            LOG.info(() -> "An ID token was refused: " + why);
            if (why.contains("audience")) {
                throw new Refused(400, "sso.error.audience");
            }
            if (why.contains("issuer")) {
                throw new Refused(400, "sso.error.issuer");
            }
            throw new Refused(400, "sso.error.token", why);
        } catch (JOSEException e) {
            throw new Refused(400, "sso.error.token", e.getMessage());
        }
    }

    /** The roles {@code claims}' groups give, through the role map. */
    static Set<String> roles(Settings.Provider provider, IDTokenClaimsSet claims) {
        Object value = claims.getClaim(provider.rolesClaim());
        Collection<?> groups =
                value instanceof Collection<?> list
                        ? list
                        : value instanceof String s ? List.of(s) : List.of();
        Set<String> roles = new TreeSet<>();
        for (Object group : groups) {
            roles.addAll(provider.roleMap().getOrDefault(String.valueOf(group), Set.of()));
        }
        return Set.copyOf(roles);
    }

    /**
     * The login the provider suggests: {@code preferred_username}, else the e-mail address, up to
     * an {@code @} (Entra ID's user principal names are addresses); lower case.
     */
    static String login(IDTokenClaimsSet claims) {
        String name = firstOf(claims, "preferred_username", "email");
        if (name == null) {
            return null;
        }
        int at = name.indexOf('@');
        return (at > 0 ? name.substring(0, at) : name).toLowerCase(Locale.ROOT);
    }

    private static String firstOf(IDTokenClaimsSet claims, String... names) {
        for (String name : names) {
            if (claims.getClaim(name) instanceof String s && !s.isBlank()) {
                return s.strip();
            }
        }
        return null;
    }

    /** The sign-in {@code state} names, taken out of the session so it cannot be used again. */
    private static Pending usedUp(HttpServletRequest request, State state) throws Refused {
        HttpSession session = request.getSession(false);
        if (session == null || state == null) {
            throw new Refused(400, "sso.error.state");
        }
        Pending found;
        synchronized (LOCK) {
            Map<String, Pending> pending = pending(session);
            found = pending.remove(state.getValue());
            session.setAttribute(PENDING, pending);
        }
        if (found == null || System.currentTimeMillis() - found.at() > PENDING_MILLIS) {
            throw new Refused(400, "sso.error.state");
        }
        return found;
    }

    @SuppressWarnings("unchecked")
    private static LinkedHashMap<String, Pending> pending(HttpSession session) {
        Object kept = session.getAttribute(PENDING);
        return kept instanceof LinkedHashMap<?, ?> map
                ? new LinkedHashMap<>((Map<String, Pending>) map)
                : new LinkedHashMap<>();
    }

    /**
     * Where to go after a login: {@code next} if it is a path inside this application (never
     * another site: {@code //host}, schemes and backslashes are refused; nor the login page or the
     * API), else the configurator list.
     */
    public static String safeNext(String next) {
        if (next == null
                || !next.startsWith("/")
                || next.startsWith("//")
                || next.contains("\\")
                || next.startsWith("/login.xhtml")
                || next.startsWith("/api/")
                || next.startsWith("/oidc/")
                || !PlainText.isPlain(next)
                || next.length() > 2_000) {
            return "/configurators.xhtml";
        }
        return next;
    }

    /** The address people reach this application by, as the provider must send them back to. */
    public String baseOf(HttpServletRequest request) {
        return base(request, settings.provider().flatMap(Settings.Provider::redirectBase));
    }

    private static String redirectUri(HttpServletRequest request, Settings.Provider provider) {
        return base(request, provider.redirectBase()) + CALLBACK;
    }

    private static String base(HttpServletRequest request, Optional<String> configured) {
        return configured.orElseGet(
                () -> {
                    String url = request.getRequestURL().toString();
                    return url.substring(
                            0,
                            url.length()
                                    - request.getRequestURI().length()
                                    + request.getContextPath().length());
                });
    }
}
