package com.editlock.security;

import com.editlock.platform.Settings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slows down password guessing, per account and per client address, on this node.
 *
 * <ul>
 *   <li>After {@code locks.login.failures.per.account} failed logins for one login name (5), every
 *       further attempt for it waits: 1 s after the next failure, then 2, 4, … up to {@code
 *       locks.login.max.delay.seconds} (60). An attempt made while waiting is refused without
 *       checking the password ({@code 429} with {@code Retry-After} on the API, a sentence on the
 *       login screen), so guessing gets no faster by trying harder.
 *   <li>The same per client address, after {@code locks.login.failures.per.address} failures (20)
 *       for any login names.
 *   <li>A successful login clears its account's count. Counts are forgotten 15 minutes after the
 *       last failure.
 * </ul>
 *
 * Unknown login names are counted like real ones, so the answer never tells whether a user exists.
 * A real user is never kept out for longer than the maximum delay after someone else's failed
 * attempt. The counts live in memory on each node: with two nodes an attacker gets twice the
 * attempts, still a few per minute.
 */
@ApplicationScoped
public class LoginThrottle {

    static final Duration FORGET_AFTER = Duration.ofMinutes(15);
    private static final int MAX_ENTRIES = 100_000;

    private record Failures(int count, Instant last, Instant blockedUntil) {}

    private final Map<String, Failures> failures = new ConcurrentHashMap<>();

    @Inject Settings settings;

    Clock clock = Clock.systemUTC();

    /**
     * How long {@code login} from {@code address} must wait before its next attempt; zero when it
     * may try now.
     */
    public Duration wait(String login, String address) {
        Instant now = clock.instant();
        Duration a = remaining(failures.get(account(login)), now);
        Duration b = remaining(failures.get(address(address)), now);
        return a.compareTo(b) >= 0 ? a : b;
    }

    public void failed(String login, String address) {
        if (failures.size() > MAX_ENTRIES) {
            forgetOld();
        }
        record(account(login), settings.loginFailuresPerAccount());
        record(address(address), settings.loginFailuresPerAddress());
    }

    public void succeeded(String login) {
        failures.remove(account(login));
    }

    private void record(String key, int allowed) {
        Instant now = clock.instant();
        failures.compute(
                key,
                (k, f) -> {
                    int count =
                            f == null || now.isAfter(f.last().plus(FORGET_AFTER))
                                    ? 1
                                    : f.count() + 1;
                    Instant blockedUntil = now;
                    if (count >= allowed) {
                        long seconds =
                                Math.min(
                                        settings.loginMaxDelaySeconds(),
                                        1L << Math.min(30, count - allowed));
                        blockedUntil = now.plusSeconds(seconds);
                    }
                    return new Failures(count, now, blockedUntil);
                });
    }

    private static Duration remaining(Failures f, Instant now) {
        if (f == null || !f.blockedUntil().isAfter(now)) {
            return Duration.ZERO;
        }
        return Duration.between(now, f.blockedUntil());
    }

    private void forgetOld() {
        Instant cutoff = clock.instant().minus(FORGET_AFTER);
        failures.values().removeIf(f -> f.last().isBefore(cutoff));
        if (failures.size() > MAX_ENTRIES) {
            failures.clear(); // a flood of distinct names: forgetting is safer than running out of
            // memory
        }
    }

    private static String account(String login) {
        return "account:" + (login == null ? "" : login);
    }

    private static String address(String address) {
        return "address:" + address;
    }
}
