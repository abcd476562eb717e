package com.editlock.security;

import com.editlock.platform.FeedCursor;
import com.editlock.platform.Settings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Slows down password guessing without letting a guesser lock the real person out (the policy, in
 * docs/security.md "Logins"). Failures are counted in three places, each with its own allowance:
 *
 * <ul>
 *   <li><b>one login name from one client address</b> ({@code locks.login.failures.per.account},
 *       5): a guesser at one account. Only that address waits; the person, from anywhere else, logs
 *       in at once.
 *   <li><b>one client address</b>, for any login names ({@code locks.login.failures.per.address},
 *       20): one address trying many accounts. Made-up API tokens from an address are counted apart
 *       ({@value #TOKEN_FAILURES_PER_ADDRESS}) and hold back only further made-up tokens: a valid
 *       token is checked first and always gets in.
 *   <li><b>one login name from many addresses</b>: when failures for one name come from {@value
 *       #SPREAD_ADDRESSES} or more addresses within the window, a guesser spreads over many
 *       machines, and every address that has not logged in as that name before (on this node,
 *       within the window) waits {@value #SPREAD_DELAY_SECONDS} s after the latest failure.
 * </ul>
 *
 * Past an allowance, each further attempt waits 1 s after the last failure, then 2, 4 … at most
 * {@code locks.login.max.delay.seconds} (60); an attempt made while waiting is refused before the
 * password is checked. A success clears its name-and-address count. A count is forgotten {@link
 * #FORGET_AFTER} after its last failure.
 *
 * <p>Memory is bounded whatever is sent: a login name that cannot exist (longer than 64 characters,
 * or not a login's form) is counted as one shared name, an IPv6 address by its /64 network (one
 * machine owns a whole /64), and the table keeps at most {@link #MAX_ENTRIES} entries, forgetting
 * the least recently failed first. Unknown names are counted like real ones, so the answer never
 * tells whether a user exists.
 *
 * <p><b>Across nodes.</b> Every failure and success is also a row of {@code login_event} ({@link
 * LoginEvents}); before a node answers a login or a token it replays, in id order, the rows it has
 * not seen into its own counts, so a guesser who spreads attempts over every node behind the proxy
 * gets the allowance of one node. Each node still decides from its own memory: when the database
 * cannot be written or read, a node keeps counting what it sees itself (a login then fails anyway,
 * since the user directory is the same database).
 */
@ApplicationScoped
public class LoginThrottle {

    static final Duration FORGET_AFTER = Duration.ofMinutes(15);

    /** Entries of each table kept at most (about 200 bytes each). */
    static final int MAX_ENTRIES = 20_000;

    /** Addresses failing for one name within the window that mark a spread-out guesser. */
    static final int SPREAD_ADDRESSES = 10;

    /** How long a stranger waits after a failure anywhere while a name is guessed from many. */
    static final long SPREAD_DELAY_SECONDS = 16;

    /**
     * Made-up API tokens one address may present before it waits. Not a setting: a token is 256
     * random bits, nobody guesses one; the count only keeps a sprayer's load and rows down, and the
     * per-address allowance for passwords may be raised (an office behind one address) without
     * raising this.
     */
    static final int TOKEN_FAILURES_PER_ADDRESS = 20;

    /** The name every impossible login name is counted under. */
    static final String IMPOSSIBLE_NAME = "!impossible";

    /** How long a missing event id holds the replay back (a transaction that commits late). */
    static final long GAP_PATIENCE_MILLIS = 2_000;

    /** Replay rounds per call at most (a node far behind catches up over several calls). */
    private static final int MAX_ROUNDS = 20;

    private static final Logger LOG = Logger.getLogger(LoginThrottle.class.getName());

    private record Failures(int count, Instant last, Instant blockedUntil) {}

    /** Failures for one name, from which addresses, and which addresses logged in with it. */
    private static final class NameRecord {
        final Set<String> failing = new HashSet<>();
        final Set<String> trusted = new HashSet<>();
        Instant last;
    }

    private final Map<String, Failures> failures = bounded();
    private final Map<String, NameRecord> names = bounded();

    /** Where this node's events go and the others' come from; none in unit tests of one node. */
    private final FeedCursor cursor = new FeedCursor(0, GAP_PATIENCE_MILLIS);

    @Inject Settings settings;

    @Inject LoginEvents events;

    Clock clock = Clock.systemUTC();

    private volatile Instant lastTrouble = Instant.EPOCH;

    /**
     * How long {@code login} from {@code address} must wait before its next attempt; zero when it
     * may try now.
     */
    public Duration wait(String login, String address) {
        catchUp();
        return waitNow(login, address);
    }

    private synchronized Duration waitNow(String login, String address) {
        Instant now = clock.instant();
        String name = name(login);
        String from = address(address);
        Duration wait =
                longer(
                        remaining(failures.get(pair(name, from)), now),
                        remaining(failures.get("address:" + from), now));
        NameRecord spread = names.get(name);
        if (spread != null && isSpread(spread, now) && !spread.trusted.contains(from)) {
            // Many machines guess this name: an address it never logged in from waits too.
            wait = longer(wait, until(spread.last.plus(spreadDelay()), now));
        }
        return wait;
    }

    public void failed(String login, String address) {
        share(LoginEvents.Kind.FAILED, name(login), address(address));
    }

    public void succeeded(String login, String address) {
        share(LoginEvents.Kind.SUCCEEDED, name(login), address(address));
    }

    /**
     * How long {@code address} must wait before presenting another token that is not valid (a valid
     * one is never held back): made-up tokens are counted per address, apart from its password
     * logins (a token has no name, and a sprayer of tokens must not keep a colleague's password
     * out).
     */
    public Duration tokenWait(String address) {
        catchUp();
        synchronized (this) {
            return remaining(failures.get("tokens:" + address(address)), clock.instant());
        }
    }

    public void tokenFailed(String address) {
        share(LoginEvents.Kind.TOKEN_FAILED, "", address(address));
    }

    /** How many entries the throttle holds now (its unit test bounds it). */
    public synchronized int entries() {
        return failures.size() + names.size();
    }

    /**
     * Writes the event for the other nodes and counts it here at once; counts it here only when the
     * database cannot take it.
     */
    private void share(LoginEvents.Kind kind, String name, String from) {
        Instant now = clock.instant();
        long id = 0;
        if (events != null) {
            try {
                id = events.append(kind, name, from, now);
            } catch (SQLException | RuntimeException e) {
                trouble("write", e);
            }
        }
        synchronized (this) {
            if (id == 0 || cursor.accept(id)) {
                apply(kind, name, from, now);
            }
        }
    }

    /** Replays the other nodes' events this node has not seen yet. */
    private void catchUp() {
        if (events == null) {
            return;
        }
        try {
            for (int round = 0; round < MAX_ROUNDS; round++) {
                long floor;
                synchronized (this) {
                    floor = cursor.floor();
                }
                List<LoginEvents.Event> batch = events.since(floor); // outside the monitor
                synchronized (this) {
                    for (LoginEvents.Event e : batch) {
                        if (cursor.accept(e.id())) {
                            apply(e.kind(), e.login(), e.address(), e.at());
                        }
                    }
                    cursor.advance(clock.millis());
                }
                if (batch.size() < LoginEvents.BATCH) {
                    return;
                }
            }
        } catch (SQLException | RuntimeException e) {
            trouble("read", e);
        }
    }

    private void trouble(String what, Exception e) {
        Instant now = clock.instant();
        if (Duration.between(lastTrouble, now).toMinutes() >= 1) {
            lastTrouble = now;
            LOG.log(
                    Level.WARNING,
                    "Could not " + what + " the shared login counts; this node counts alone: " + e,
                    e);
        }
    }

    private void apply(LoginEvents.Kind kind, String name, String from, Instant at) {
        switch (kind) {
            case FAILED -> applyFailure(name, from, at);
            case SUCCEEDED -> applySuccess(name, from);
            case TOKEN_FAILED -> record("tokens:" + from, TOKEN_FAILURES_PER_ADDRESS, at);
        }
    }

    private void applyFailure(String name, String from, Instant now) {
        record(pair(name, from), settings.loginFailuresPerAccount(), now);
        record("address:" + from, settings.loginFailuresPerAddress(), now);
        NameRecord spread = names.get(name);
        if (spread == null || now.isAfter(spread.last.plus(FORGET_AFTER))) {
            spread = new NameRecord();
        }
        if (spread.failing.size() < SPREAD_ADDRESSES) {
            spread.failing.add(from);
        }
        spread.last = spread.last == null || now.isAfter(spread.last) ? now : spread.last;
        names.remove(name);
        names.put(name, spread); // most recently failed last
    }

    private void applySuccess(String name, String from) {
        failures.remove(pair(name, from));
        NameRecord spread = names.get(name);
        if (spread != null && spread.trusted.size() < SPREAD_ADDRESSES) {
            spread.trusted.add(from);
        }
    }

    private boolean isSpread(NameRecord r, Instant now) {
        return r.failing.size() >= SPREAD_ADDRESSES && !now.isAfter(r.last.plus(FORGET_AFTER));
    }

    private Duration spreadDelay() {
        return Duration.ofSeconds(Math.min(settings.loginMaxDelaySeconds(), SPREAD_DELAY_SECONDS));
    }

    private void record(String key, int allowed, Instant now) {
        Failures f = failures.remove(key);
        int count = f == null || now.isAfter(f.last().plus(FORGET_AFTER)) ? 1 : f.count() + 1;
        Instant blockedUntil = now;
        if (count >= allowed) {
            long seconds =
                    Math.min(settings.loginMaxDelaySeconds(), 1L << Math.min(30, count - allowed));
            blockedUntil = now.plusSeconds(seconds);
        }
        failures.put(key, new Failures(count, now, blockedUntil)); // most recently failed last
    }

    private static Duration longer(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static Duration remaining(Failures f, Instant now) {
        return f == null ? Duration.ZERO : until(f.blockedUntil(), now);
    }

    private static Duration until(Instant end, Instant now) {
        return end.isAfter(now) ? Duration.between(now, end) : Duration.ZERO;
    }

    /** The name a login is counted under: itself when it could exist, else one shared name. */
    static String name(String login) {
        return login != null && EditlockIdentityStore.isLogin(login) ? login : IMPOSSIBLE_NAME;
    }

    /** An IPv4 address as is; an IPv6 address by its /64 network; anything else as one. */
    static String address(String address) {
        if (address == null || address.length() > 64) {
            return "?";
        }
        if (address.indexOf(':') < 0) {
            return address;
        }
        try {
            byte[] bytes =
                    InetAddress.getByName(address.replaceAll("^\\[|]$|%.*$", "")).getAddress();
            if (bytes.length != 16) {
                return InetAddress.getByAddress(bytes).getHostAddress();
            }
            StringBuilder network = new StringBuilder();
            for (int i = 0; i < 8; i += 2) {
                network.append(
                                Integer.toHexString(
                                        ((bytes[i] & 0xff) << 8) | (bytes[i + 1] & 0xff)))
                        .append(':');
            }
            return network.append(":/64").toString();
        } catch (UnknownHostException | IllegalArgumentException e) {
            return "?";
        }
    }

    private static String pair(String name, String address) {
        return "pair:" + address + "|" + name;
    }

    /**
     * A map that forgets its eldest entry (the least recently failed) beyond {@link #MAX_ENTRIES}.
     */
    private static <V> Map<String, V> bounded() {
        return new LinkedHashMap<>() {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > MAX_ENTRIES;
            }
        };
    }
}
