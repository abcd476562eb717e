package com.editlock.platform;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Editlock's settings, read once and validated. Each key is a MicroProfile Config property and, by
 * MicroProfile's mapping, an environment variable: {@code locks.lease.seconds} is also {@code
 * LOCKS_LEASE_SECONDS}. A bad value is an {@link InvalidSettingException} that names the key and
 * the accepted range.
 *
 * <p>A page's state may hold them (a view-scoped bean injects them) and travel to another node in
 * the session (with {@code LOCKS_GRID=true}): what travels is only a {@link Here} marker, and the
 * node that reads it gets its own settings back, never a copy of another node's.
 */
public final class Settings implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    /**
     * What a serialized {@code Settings} is: "this node's settings", looked up where it is read.
     */
    private record Here() implements java.io.Serializable {
        private Object readResolve() {
            return jakarta.enterprise.inject.spi.CDI.current().select(Settings.class).get();
        }
    }

    private Object writeReplace() {
        return new Here();
    }

    public static final String LEASE_SECONDS = "locks.lease.seconds";
    public static final String SWEEP_SECONDS = "locks.sweep.seconds";

    /**
     * A frozen browser or a lost network frees its locks within lease + sweep + 1 s: 13 s. The
     * lease is renewed in bulk (one statement per node a second, whatever the number of tabs), so a
     * short one costs the database nothing per tab; a browser beats every 2 s for all its tabs.
     */
    public static final int DEFAULT_LEASE_SECONDS = 10;

    /** The sweep of lapsed locks: one indexed delete, every 2 s by default. */
    public static final int DEFAULT_SWEEP_SECONDS = 2;

    /**
     * The default tab-close grace in milliseconds ({@link #tabGraceMillis()}): a dropped stream
     * that comes back within a second (a proxy restart, a node change) keeps its tab's locks, and a
     * crashed browser's are free within 2 s.
     */
    public static final long DEFAULT_TAB_GRACE_MILLIS = 1_300;

    public static final String SESSION_TIMEOUT_SECONDS = "locks.session.timeout.seconds";
    public static final String DEMO_DATA = "locks.demo.data";
    public static final String HTTP_PORT = "locks.http.port";
    public static final String IDLE_TIMEOUT_SECONDS = "locks.idle.timeout.seconds";
    public static final String TAB_GRACE_SECONDS = "locks.tab.grace.seconds";
    public static final String AUDIT_RETENTION_DAYS = "locks.audit.retention.days";
    public static final String DRAFT_RETENTION_DAYS = "locks.draft.retention.days";
    public static final String MAX_DRAFT_BYTES = "locks.max.draft.bytes";
    public static final String HANDOVER_TIMEOUT_SECONDS = "locks.handover.timeout.seconds";
    public static final String OLD_LOCK_MINUTES = "locks.old.lock.minutes";
    public static final String MAX_LOCKS_PER_SESSION = "locks.max.locks.per.session";
    public static final String MAX_LOCK_AGE_MINUTES = "locks.max.lock.age.minutes";
    public static final String MAX_BODY_BYTES = "locks.max.body.bytes";
    public static final String ALLOWED_ORIGINS = "locks.allowed.origins";
    public static final String PASSWORD_ITERATIONS = "locks.password.iterations";
    public static final String LOGIN_FAILURES_PER_ACCOUNT = "locks.login.failures.per.account";
    public static final String LOGIN_FAILURES_PER_ADDRESS = "locks.login.failures.per.address";
    public static final String LOGIN_MAX_DELAY_SECONDS = "locks.login.max.delay.seconds";
    public static final String ROLE_RECHECK_SECONDS = "locks.role.recheck.seconds";
    public static final String TRUSTED_PROXIES = "locks.trusted.proxies";
    public static final String DRAIN_FILE = "locks.drain.file";
    public static final String GRID = "locks.grid";
    public static final String OIDC_ISSUER = "locks.oidc.issuer";
    public static final String OIDC_CLIENT_ID = "locks.oidc.client.id";
    public static final String OIDC_CLIENT_SECRET = "locks.oidc.client.secret";
    public static final String OIDC_ROLES_CLAIM = "locks.oidc.roles.claim";
    public static final String OIDC_ROLE_MAP = "locks.oidc.role.map";
    public static final String OIDC_NAME = "locks.oidc.name";
    public static final String OIDC_REDIRECT_BASE = "locks.oidc.redirect.base";
    public static final String PASSWORDS = "locks.passwords";

    private final int leaseSeconds;
    private final int sweepSeconds;
    private final int sessionTimeoutSeconds;
    private final boolean demoData;
    private final int httpPort;
    private final int idleTimeoutSeconds;
    private final long tabGraceMillis;
    private final int auditRetentionDays;
    private final int draftRetentionDays;
    private final int maxDraftBytes;
    private final int handoverTimeoutSeconds;
    private final int oldLockMinutes;
    private final int maxLocksPerSession;
    private final int maxLockAgeMinutes;
    private final int maxBodyBytes;
    private final Set<String> allowedOrigins;
    private final int passwordIterations;
    private final int loginFailuresPerAccount;
    private final int loginFailuresPerAddress;
    private final int loginMaxDelaySeconds;
    private final int roleRecheckSeconds;
    private final List<AddressRange> trustedProxies;
    private final Optional<String> drainFile;
    private final boolean grid;
    private final Optional<Provider> provider;
    private final boolean passwords;

    private Settings(Reader r) {
        leaseSeconds = r.integer(LEASE_SECONDS, DEFAULT_LEASE_SECONDS, 5, 86_400);
        sweepSeconds = r.integer(SWEEP_SECONDS, DEFAULT_SWEEP_SECONDS, 1, 3_600);
        sessionTimeoutSeconds = r.integer(SESSION_TIMEOUT_SECONDS, 1_800, 10, 604_800);
        demoData = r.bool(DEMO_DATA, false);
        httpPort = r.integer(HTTP_PORT, 8080, 1, 65_535);
        idleTimeoutSeconds = r.integer(IDLE_TIMEOUT_SECONDS, 900, 60, 86_400);
        tabGraceMillis = r.seconds(TAB_GRACE_SECONDS, DEFAULT_TAB_GRACE_MILLIS, 0, 60);
        auditRetentionDays = r.integer(AUDIT_RETENTION_DAYS, 90, 1, 36_500);
        draftRetentionDays = r.integer(DRAFT_RETENTION_DAYS, 30, 1, 3_650);
        maxDraftBytes = r.integer(MAX_DRAFT_BYTES, 65_536, 1_024, 1_048_576);
        handoverTimeoutSeconds = r.integer(HANDOVER_TIMEOUT_SECONDS, 120, 5, 3_600);
        oldLockMinutes = r.integer(OLD_LOCK_MINUTES, 60, 1, 525_600);
        maxLocksPerSession = r.integer(MAX_LOCKS_PER_SESSION, 1_000, 1, 1_000_000);
        maxLockAgeMinutes = r.integer(MAX_LOCK_AGE_MINUTES, 720, 1, 525_600);
        maxBodyBytes = r.integer(MAX_BODY_BYTES, 262_144, 1_024, 16_777_216);
        allowedOrigins = r.origins(ALLOWED_ORIGINS);
        passwordIterations = r.integer(PASSWORD_ITERATIONS, 600_000, 1_024, 10_000_000);
        loginFailuresPerAccount = r.integer(LOGIN_FAILURES_PER_ACCOUNT, 5, 1, 1_000);
        loginFailuresPerAddress = r.integer(LOGIN_FAILURES_PER_ADDRESS, 20, 1, 100_000);
        loginMaxDelaySeconds = r.integer(LOGIN_MAX_DELAY_SECONDS, 60, 1, 3_600);
        roleRecheckSeconds = r.integer(ROLE_RECHECK_SECONDS, 60, 1, 86_400);
        trustedProxies = r.ranges(TRUSTED_PROXIES);
        drainFile = r.text(DRAIN_FILE);
        grid = r.bool(GRID, false);
        provider = r.provider();
        passwords = r.bool(PASSWORDS, true);
        if (!passwords && provider.isEmpty()) {
            r.problems.add(
                    Reader.name(PASSWORDS)
                            + " is off, but no provider is set ("
                            + Reader.name(OIDC_ISSUER)
                            + "): nobody could log in.");
        }
        r.failIfAnyBad();
    }

    /**
     * Reads and validates all settings from {@code source} (a key to its raw value, empty when
     * unset).
     *
     * @throws InvalidSettingException listing every bad key
     */
    public static Settings from(Function<String, Optional<String>> source) {
        return new Settings(new Reader(source));
    }

    /** How long a lock lives without a heartbeat. */
    public int leaseSeconds() {
        return leaseSeconds;
    }

    /** How often the sweep deletes lapsed locks. */
    public int sweepSeconds() {
        return sweepSeconds;
    }

    /** An HTTP session idle this long ends, and with it every lock it holds. */
    public int sessionTimeoutSeconds() {
        return sessionTimeoutSeconds;
    }

    /**
     * Whether this node's HTTP sessions live in Payara's data grid ({@code LOCKS_GRID}; the node is
     * started as a grid member, see {@code docs/operations.md}): then a node that stops ends no
     * session, unless it is the grid's last member.
     */
    public boolean grid() {
        return grid;
    }

    /** Whether demo users and configurators are installed at start-up. */
    public boolean demoData() {
        return demoData;
    }

    public int httpPort() {
        return httpPort;
    }

    /**
     * The proxies whose {@code X-Forwarded-For} is believed ({@code LOCKS_TRUSTED_PROXIES}, none
     * unless set): from any other peer the header is ignored.
     */
    public List<AddressRange> trustedProxies() {
        return trustedProxies;
    }

    /**
     * A file whose existence marks this node not ready ({@code LOCKS_DRAIN_FILE}, none unless set):
     * the proxy then sends it no new requests.
     */
    public Optional<String> drainFile() {
        return drainFile;
    }

    /**
     * An editor whose user has not typed, clicked or moved for this long stops renewing its lease
     * (with a warning a minute before), so an open tab left for lunch does not hold its lock for
     * ever.
     */
    public int idleTimeoutSeconds() {
        return idleTimeoutSeconds;
    }

    /** How long an unsaved draft is kept after its last change; older ones are purged hourly. */
    public int draftRetentionDays() {
        return draftRetentionDays;
    }

    /** The most characters a draft (its fields and its base values together) may have. */
    public int maxDraftBytes() {
        return maxDraftBytes;
    }

    /**
     * How long a request to hand a lock over waits for the holder's answer; then the asker is told
     * and nothing changes.
     */
    public int handoverTimeoutSeconds() {
        return handoverTimeoutSeconds;
    }

    /** How long the lock history is kept; older lines are purged by the sweep timer. */
    public int auditRetentionDays() {
        return auditRetentionDays;
    }

    /** A lock held longer than this is highlighted on the admin dashboard. */
    public int oldLockMinutes() {
        return oldLockMinutes;
    }

    /**
     * A session holding this many locks is refused the next one (a runaway script, not a person).
     */
    public int maxLocksPerSession() {
        return maxLocksPerSession;
    }

    /**
     * No lock lives longer than this from its grant, heartbeats or not: a tab left open on an
     * unattended machine cannot keep a record for ever.
     */
    public int maxLockAgeMinutes() {
        return maxLockAgeMinutes;
    }

    /** Request bodies larger than this are refused with 413. */
    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    /**
     * Origins (besides the server's own, as the browser sees it in the Host header) from which
     * state changes are accepted, lower case, e.g. {@code https://editlock.example.com} when a
     * proxy rewrites the Host header.
     */
    public Set<String> allowedOrigins() {
        return allowedOrigins;
    }

    /**
     * PBKDF2-HMAC-SHA256 iterations for new and upgraded password hashes (600,000, OWASP's figure
     * for SHA-256).
     */
    public int passwordIterations() {
        return passwordIterations;
    }

    /**
     * Failed logins for one login name from one client address, within the throttle window, before
     * that address's further attempts for the name are delayed.
     */
    public int loginFailuresPerAccount() {
        return loginFailuresPerAccount;
    }

    /** Failed logins from one client address before further attempts from it are delayed. */
    public int loginFailuresPerAddress() {
        return loginFailuresPerAddress;
    }

    /** The longest a throttled account or address waits before it may try again. */
    public int loginMaxDelaySeconds() {
        return loginMaxDelaySeconds;
    }

    /**
     * A logged-in session's roles are read again from the user directory at most this long after
     * the last read.
     */
    public int roleRecheckSeconds() {
        return roleRecheckSeconds;
    }

    /**
     * How long, in milliseconds, a tab whose live stream was lost may take to come back before the
     * locks it holds are released: long enough for a dropped connection that can reconnect within a
     * second (its client tries every 100 ms), short enough that a crashed browser's locks are free
     * within 2 s. Set in seconds, to the millisecond ({@code 1.3}). Noticing the loss takes up to a
     * keep-alive interval and a probe more (0.3 s).
     */
    public long tabGraceMillis() {
        return tabGraceMillis;
    }

    /**
     * How often an open editor renews its leases: four heartbeats fit in one lease, and in one
     * session timeout (the heartbeat is what keeps an active editor's session from timing out), so
     * one lost heartbeat costs nothing.
     */
    public int heartbeatSeconds() {
        return Math.max(1, Math.min(leaseSeconds, sessionTimeoutSeconds) / 4);
    }

    /**
     * The company's OpenID Connect provider people may log in through, when {@code
     * LOCKS_OIDC_ISSUER} is set: its issuer (as its discovery document names it), Editlock's client
     * id and secret there, the ID token claim that lists a person's groups, which group gives which
     * role, the name the login page shows, and the address the provider sends people back to (the
     * address people reach Editlock by, {@code https://editlock.example.com}; when empty, the one
     * each request came to).
     */
    public record Provider(
            String issuer,
            String clientId,
            String clientSecret,
            String rolesClaim,
            Map<String, Set<String>> roleMap,
            String name,
            Optional<String> redirectBase) {

        @Override
        public String toString() { // never the secret, in a log or a message
            return "Provider[issuer=" + issuer + ", clientId=" + clientId + "]";
        }
    }

    /**
     * Whether people may log in with a password kept here (the login form, HTTP Basic); off, only
     * the provider logs people in (API tokens still work), and admins add nobody with a password.
     */
    public boolean passwords() {
        return passwords;
    }

    /** The OpenID Connect provider, when one is configured. */
    public Optional<Provider> provider() {
        return provider;
    }

    /** The environment variable that sets {@code key}. */
    public static String environmentName(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    private static final class Reader {
        private final Function<String, Optional<String>> source;
        private final List<String> problems = new ArrayList<>();

        Reader(Function<String, Optional<String>> source) {
            this.source = source;
        }

        int integer(String key, int fallback, int min, int max) {
            Optional<String> raw = source.apply(key).map(String::trim).filter(s -> !s.isEmpty());
            if (raw.isEmpty()) {
                return fallback;
            }
            try {
                int value = Integer.parseInt(raw.get());
                if (value >= min && value <= max) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            problems.add(
                    name(key)
                            + " is '"
                            + raw.get()
                            + "': it must be a whole number from "
                            + min
                            + " to "
                            + max
                            + ".");
            return fallback;
        }

        /**
         * A duration given in seconds, whole or to the millisecond ({@code 2}, {@code 1.3}), from
         * {@code min} to {@code max} seconds; in milliseconds.
         */
        long seconds(String key, long fallbackMillis, int min, int max) {
            Optional<String> raw = source.apply(key).map(String::trim).filter(s -> !s.isEmpty());
            if (raw.isEmpty()) {
                return fallbackMillis;
            }
            if (raw.get().matches("[0-9]{1,9}(\\.[0-9]{1,3})?")) {
                java.math.BigDecimal value = new java.math.BigDecimal(raw.get());
                if (value.compareTo(java.math.BigDecimal.valueOf(min)) >= 0
                        && value.compareTo(java.math.BigDecimal.valueOf(max)) <= 0) {
                    return value.movePointRight(3).longValueExact();
                }
            }
            problems.add(
                    name(key)
                            + " is '"
                            + raw.get()
                            + "': it must be a number of seconds from "
                            + min
                            + " to "
                            + max
                            + ", to the millisecond at most (such as 1.3).");
            return fallbackMillis;
        }

        boolean bool(String key, boolean fallback) {
            Optional<String> raw =
                    source.apply(key)
                            .map(s -> s.trim().toLowerCase(Locale.ROOT))
                            .filter(s -> !s.isEmpty());
            if (raw.isEmpty()) {
                return fallback;
            }
            switch (raw.get()) {
                case "true", "on", "yes", "1":
                    return true;
                case "false", "off", "no", "0":
                    return false;
                default:
                    problems.add(
                            name(key)
                                    + " is '"
                                    + raw.get()
                                    + "': it must be true or false (on/off).");
                    return fallback;
            }
        }

        List<AddressRange> ranges(String key) {
            List<AddressRange> ranges = new ArrayList<>();
            for (String raw : source.apply(key).orElse("").split(",")) {
                if (raw.isBlank()) {
                    continue;
                }
                Optional<AddressRange> range = AddressRange.parse(raw);
                if (range.isEmpty()) {
                    problems.add(
                            name(key)
                                    + " has '"
                                    + raw.trim()
                                    + "': each entry must be an IP address or a network such as "
                                    + "127.0.0.1 or 10.0.0.0/8, separated by commas.");
                } else {
                    ranges.add(range.get());
                }
            }
            return List.copyOf(ranges);
        }

        Optional<String> text(String key) {
            return source.apply(key).map(String::trim).filter(v -> !v.isEmpty());
        }

        Set<String> origins(String key) {
            Set<String> origins = new LinkedHashSet<>();
            for (String raw : source.apply(key).orElse("").split(",")) {
                String origin = raw.trim().toLowerCase(Locale.ROOT);
                if (origin.isEmpty()) {
                    continue;
                }
                if (!origin.matches("https?://[a-z0-9.\\-]+(:[0-9]{1,5})?")) {
                    problems.add(
                            name(key)
                                    + " has '"
                                    + raw.trim()
                                    + "': each origin must look like "
                                    + "https://host or https://host:port, separated by commas.");
                } else {
                    origins.add(origin);
                }
            }
            return Set.copyOf(origins);
        }

        Optional<Provider> provider() {
            Optional<String> issuer = text(OIDC_ISSUER);
            if (issuer.isEmpty()) {
                return Optional.empty();
            }
            if (!issuer.get().matches("https?://[^\\s?#]+")) {
                problems.add(
                        name(OIDC_ISSUER)
                                + " is '"
                                + issuer.get()
                                + "': it must be the provider's issuer address, such as"
                                + " https://login.example.com/realms/company.");
            }
            Optional<String> clientId = text(OIDC_CLIENT_ID);
            Optional<String> secret = text(OIDC_CLIENT_SECRET);
            if (clientId.isEmpty()) {
                problems.add(name(OIDC_CLIENT_ID) + " is needed with " + name(OIDC_ISSUER) + ".");
            }
            if (secret.isEmpty()) {
                problems.add(
                        name(OIDC_CLIENT_SECRET) + " is needed with " + name(OIDC_ISSUER) + ".");
            }
            Map<String, Set<String>> roleMap = new LinkedHashMap<>();
            for (String raw : source.apply(OIDC_ROLE_MAP).orElse("").split(",")) {
                if (raw.isBlank()) {
                    continue;
                }
                int eq = raw.lastIndexOf('=');
                String group = eq < 0 ? "" : raw.substring(0, eq).trim();
                String role = eq < 0 ? "" : raw.substring(eq + 1).trim();
                if (group.isEmpty() || !Set.of("editor", "admin", "take-over").contains(role)) {
                    problems.add(
                            name(OIDC_ROLE_MAP)
                                    + " has '"
                                    + raw.trim()
                                    + "': each entry must be group=role, the role editor, admin or"
                                    + " take-over, separated by commas.");
                } else {
                    roleMap.computeIfAbsent(group, g -> new LinkedHashSet<>()).add(role);
                }
            }
            if (roleMap.isEmpty()) {
                problems.add(
                        name(OIDC_ROLE_MAP)
                                + " is needed with "
                                + name(OIDC_ISSUER)
                                + ": which of the provider's groups gives which role, such as"
                                + " editlock-editors=editor,editlock-admins=admin.");
            }
            Optional<String> base = text(OIDC_REDIRECT_BASE).map(b -> b.replaceAll("/+$", ""));
            if (base.isPresent() && !base.get().matches("https?://[^\\s?#]+")) {
                problems.add(
                        name(OIDC_REDIRECT_BASE)
                                + " is '"
                                + base.get()
                                + "': it must be the address people reach Editlock by, such as"
                                + " https://editlock.example.com.");
            }
            Map<String, Set<String>> frozen = new LinkedHashMap<>();
            roleMap.forEach((g, roles) -> frozen.put(g, Set.copyOf(roles)));
            return Optional.of(
                    new Provider(
                            issuer.get(),
                            clientId.orElse(""),
                            secret.orElse(""),
                            text(OIDC_ROLES_CLAIM).orElse("groups"),
                            Map.copyOf(frozen),
                            text(OIDC_NAME).orElse("single sign-on"),
                            base));
        }

        void failIfAnyBad() {
            if (!problems.isEmpty()) {
                throw new InvalidSettingException(String.join(" ", problems));
            }
        }

        private static String name(String key) {
            return environmentName(key) + " (" + key + ")";
        }
    }
}
