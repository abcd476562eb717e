package com.editlock.lock.internal;

import java.util.function.UnaryOperator;

/**
 * Small bugs a developer could make in the lock store's SQL, each planted by rewriting one
 * statement's text as the store prepares it ({@link LockStore#withStatements}). {@code
 * PlantedBugsTest} runs the torture's short form against each and requires the checker, on its own,
 * to report it; {@code docs/lock-protocol.md} lists them with what kills each.
 */
enum PlantedBug {
    READ_AND_WRITE_COMPATIBLE(
            "two conflicting locks live at once",
            "READ and WRITE treated as compatible",
            LockStatements.grantAll(1),
            "(o.mode = 'WRITE' or ? = 'WRITE')",
            "(o.mode = 'WRITE' and ? = 'WRITE')"),

    NO_ADVISORY_LOCK(
            "two conflicting locks live at once",
            "acquisitions inside an aggregate not serialized",
            LockStatements.SERIALIZE_AGGREGATE,
            "select pg_advisory_xact_lock(hashtextextended(?, 0))",
            "select length(?)"),

    NO_HIERARCHY_CHECK(
            "two conflicting locks live at once",
            "the aggregate and its parts never conflict",
            LockStatements.grantAll(1),
            "or o.resource_key = o.aggregate_key",
            "",
            "or r.resource_key = o.aggregate_key",
            ""),

    SWEEP_NOT_AUDITED(
            "replaying the history does not give app_lock",
            "the sweep deletes without writing EXPIRED rows",
            LockStatements.SWEEP_BATCH,
            "from gone\nreturning resource_key",
            "from gone where false\nreturning resource_key"),

    SAVE_IGNORES_TOKEN(
            "which was not live then",
            "a save's fencing check ignores the token",
            LockStatements.VERIFY,
            "and fencing_token = ?",
            "and (fencing_token = ? or true)"),

    TAB_RELEASE_FREES_SESSION(
            "a release of the tab that held it",
            "closing a tab releases the whole session's locks",
            LockStatements.RELEASE_VIEW,
            "owner_id = ? and owner_view = ?",
            "owner_id = ? and (owner_view = ? or true)"),

    HEARTBEAT_RENEWS_OTHER_TABS(
            "that tab held at most",
            "a tab's heartbeat renews the session's other tabs",
            LockStatements.RENEW,
            "(b.owner_view is null or b.owner_view = a.owner_view)",
            "(b.owner_view is null or b.owner_view = a.owner_view or true)"),

    RENEWAL_IGNORES_OWNER(
            "held at most",
            "a node's bulk renewal matches beats to locks by tab alone, whoever owns them",
            LockStatements.RENEW,
            "on a.owner_id = b.owner_id and",
            "on (a.owner_id = b.owner_id or b.owner_view = a.owner_view) and"),

    RENEWAL_SHORTENS_LEASE(
            "before its lease ran out",
            "a bulk renewal sets the lease from an older beat, shortening a newer grant's lease",
            LockStatements.RENEW,
            "least(greatest(a.expires_at, statement_timestamp()",
            "least((statement_timestamp()"),

    FORCE_RELEASE_AUDITED_AS_RELEASED(
            "the admin was told token",
            "a force release audited as the holder's release",
            LockStatements.FORCE_RELEASE,
            "select ?, resource_key",
            "select replace(?, 'FORCE_', ''), resource_key"),

    SAVE_ON_LAPSED_LEASE(
            "after its lease ran out",
            "a save accepted after its lease ran out (before the sweep)",
            LockStatements.VERIFY,
            "and fencing_token = ? and expires_at > statement_timestamp()",
            "and fencing_token = ?"),

    RELEASE_IGNORES_OWNER(
            "lies inside no call of a release of",
            "a release frees the key whoever holds it",
            LockStatements.RELEASE,
            "resource_key = ? and owner_id = ? and",
            "resource_key = ? and (owner_id = ? or true) and"),

    CLEAN_UP_TOO_EARLY(
            "before its lease ran out",
            "the clean-up before a grant deletes locks 2 s before they lapse",
            LockStatements.CLEAN_UP_AGGREGATE,
            "expires_at <= statement_timestamp()",
            "expires_at <= statement_timestamp() + interval '2 seconds'"),

    SWEEP_TOO_EARLY(
            "before its lease ran out",
            "the sweep deletes locks 2 s before they lapse",
            LockStatements.SWEEP_BATCH,
            "expires_at <= statement_timestamp()",
            "expires_at <= statement_timestamp() + interval '2 seconds'");

    /** A piece of the violation the checker must report for it: the rule that catches this bug. */
    final String caughtBy;

    final String description;
    private final String statement;

    /** Pairs: a piece of the statement, what it becomes. */
    private final String[] changes;

    PlantedBug(String caughtBy, String description, String statement, String... changes) {
        this.caughtBy = caughtBy;
        this.description = description;
        this.statement = statement;
        this.changes = changes;
    }

    private String change(String sql) {
        for (int i = 0; i < changes.length; i += 2) {
            sql = sql.replace(changes[i], changes[i + 1]);
        }
        return sql;
    }

    /**
     * The rewrite: only the planted statement (wherever the store sends it, alone or inside a text
     * of several), and only if the text to change is still there — else the bug would plant nothing
     * and pass.
     */
    UnaryOperator<String> rewrite() {
        for (int i = 0; i < changes.length; i += 2) {
            if (!statement.contains(changes[i])) {
                throw new IllegalStateException(
                        name() + ": the statement no longer contains " + changes[i]);
            }
        }
        if (statement.startsWith(GRANT)) { // its text depends on the number of keys requested
            return sql -> sql.contains(GRANT) ? change(sql) : sql;
        }
        String changed = change(statement);
        return sql -> sql.contains(statement) ? sql.replace(statement, changed) : sql;
    }

    private static final String GRANT = "with request (resource_key, aggregate_key) as (values";
}
