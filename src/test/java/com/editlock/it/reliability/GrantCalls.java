package com.editlock.it.reliability;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The two-node torture's check from the clients' side: each session is one owner in the history and
 * each owner one session, and every grant, re-grant and revival lies inside a call of the session
 * that owns it and that could have made it — an acquire or a page opened on that key, or (for a
 * revival) a heartbeat — whatever that call was answered. Plain logic over the history's rows and
 * the calls the clients wrote down, so a made-up history tests it.
 */
public final class GrantCalls {

    /** Clock slack between the clients' and the database's instants (one machine). */
    public static final Duration SLACK = Duration.ofMillis(2);

    /**
     * A call that may grant: {@code key} null for a heartbeat; {@code session} is
     * client/generation.
     */
    public record Call(String session, String key, Instant sent, Instant received) {}

    /** A grant row of the history. */
    public record Row(long id, String type, String key, String owner, Instant at) {}

    private GrantCalls() {}

    /**
     * Adds a sentence to {@code violations} for each owner shared by two sessions and each row no
     * call of its session explains; returns how many rows were explained. {@code ownerOfSession}:
     * client/generation → owner id.
     */
    public static int judge(
            List<Row> rows,
            Map<String, String> ownerOfSession,
            Collection<Call> calls,
            List<String> violations) {
        Map<String, String> sessionOf = new HashMap<>();
        ownerOfSession.forEach(
                (session, owner) -> {
                    String other = sessionOf.putIfAbsent(owner, session);
                    if (other != null) {
                        violations.add(
                                "owner " + owner + " is both session " + other + " and " + session);
                    }
                });
        Map<String, List<Call>> callsOf = new HashMap<>();
        for (Call call : calls) {
            callsOf.computeIfAbsent(call.session(), k -> new ArrayList<>()).add(call);
        }
        int matched = 0;
        for (Row row : rows) {
            String session = sessionOf.get(row.owner());
            if (session == null) {
                violations.add(
                        String.format(
                                "event %d: %s %s at %s for an owner that no client's session was ever"
                                        + " told of",
                                row.id(), row.type(), row.key(), row.at()));
            } else if (callsOf.getOrDefault(session, List.of()).stream()
                    .anyMatch(call -> explains(call, row))) {
                matched++;
            } else {
                violations.add(
                        String.format(
                                "event %d: %s %s at %s for session %s, outside every call of that"
                                        + " session that could make it",
                                row.id(), row.type(), row.key(), row.at(), session));
            }
        }
        return matched;
    }

    private static boolean explains(Call call, Row row) {
        boolean couldMakeIt =
                call.key() == null
                        ? row.type().equals("RENEWED_AFTER_LAPSE")
                        : call.key().equals(row.key());
        return couldMakeIt
                && !row.at().isBefore(call.sent().minus(SLACK))
                && !row.at().isAfter(call.received().plus(SLACK));
    }
}
