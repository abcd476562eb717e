package com.editlock.lock.internal;

import java.util.function.UnaryOperator;

/**
 * Small bugs a developer could make in the lock store's SQL, each planted by rewriting one
 * statement's text as the store prepares it ({@link LockStore#withStatements}). {@code
 * PlantedBugsTest} runs the torture's short form against each and requires the checker, on its own,
 * to report it; {@code docs/lock-protocol.md} lists them with what kills each. The ones that end
 * locks the screens hold are also planted in a node of a two-node cluster ({@link #spec()}, {@code
 * PlantedBugsOverTwoNodesIT}).
 */
public enum PlantedBug {
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
            "a.owner_id = b.owner_id and a.owner_view = b.owner_view",
            "a.owner_id = b.owner_id and (a.owner_view = b.owner_view or true)"),

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
            "expires_at <= statement_timestamp() + interval '2 seconds'"),

    SWEEP_SKIPS_READ_LOCKS(
            "a ghost for",
            "the sweep deletes lapsed WRITE locks only",
            LockStatements.SWEEP_BATCH,
            "where expires_at <= statement_timestamp()",
            "where mode = 'WRITE' and expires_at <= statement_timestamp()"),

    CLEAN_UP_NOT_AUDITED(
            "replaying the history does not give app_lock",
            "the clean-up before a grant deletes without writing EXPIRED rows",
            LockStatements.CLEAN_UP_AGGREGATE,
            "from gone",
            "from gone where false"),

    RELEASE_FREES_NOTHING(
            "a release of the key by",
            "a release deletes nothing and answers \"not held\"",
            LockStatements.RELEASE,
            "resource_key = ? and owner_id = ? and",
            "resource_key = ? and owner_id = ? and false and"),

    TAB_RELEASE_FREES_NOTHING(
            "a release of its tab by",
            "closing a tab frees none of its locks",
            LockStatements.RELEASE_VIEW,
            "owner_id = ? and owner_view = ?",
            "owner_id = ? and owner_view = ? and false"),

    SESSION_END_KEEPS_READ_LOCKS(
            "the end of its session by",
            "a logout or a session's end keeps the session's READ locks",
            LockStatements.RELEASE_ALL,
            "where owner_id = ? order",
            "where owner_id = ? and mode = 'WRITE' order"),

    SESSION_END_KEEPS_WRITE_LOCKS(
            "the end of its session by",
            "a logout or a session's end keeps the session's WRITE locks",
            LockStatements.RELEASE_ALL,
            "where owner_id = ? order",
            "where owner_id = ? and mode = 'READ' order"),

    FORCE_RELEASE_KEEPS_READERS(
            ForcedRace.SHARED_RECORD_FORCE_RELEASED,
            "a force release of the key by",
            "an admin's force release leaves the READ locks on the key",
            LockStatements.FORCE_RELEASE,
            "where resource_key = ? order",
            "where resource_key = ? and mode = 'WRITE' order"),

    FORCE_RELEASE_FREES_NOTHING(
            "a force release of the key by",
            "an admin's force release deletes nothing",
            LockStatements.FORCE_RELEASE,
            "where resource_key = ? order",
            "where resource_key = ? and false order"),

    FORCE_RELEASE_OF_A_PERSON_KEEPS_READERS(
            "an admin's release of its person by",
            "an admin's release of everything a person holds leaves their READ locks",
            LockStatements.FORCE_RELEASE_USER,
            "where user_login = ? order",
            "where user_login = ? and mode = 'WRITE' order"),

    TAKE_OVER_LEAVES_THE_HOLDER(
            "was refused a take-over of",
            "a take-over deletes nothing, so the holder's own lock refuses it",
            LockStatements.TAKE_FROM,
            "owner_id <> ?",
            "owner_id <> ? and false"),

    TAKE_OVER_ENDS_THE_TAKERS_OWN(
            ForcedRace.SHARED_RECORD_TAKEN_OVER,
            "lies inside no call of a take-over",
            "a take-over also ends the taker's own lock on the key",
            LockStatements.TAKE_FROM,
            "owner_id <> ?",
            "(owner_id <> ? or true)"),

    HAND_OVER_FREES_NOTHING(
            ForcedRace.HAND_OVER_AGREED,
            "and agreed to, left the holder's token",
            "a hand-over its holder agreed to deletes nothing",
            LockStatements.HAND_FROM,
            " and expires_at > statement_timestamp()",
            " and false"),

    HAND_OVER_IGNORES_THE_TOKEN(
            ForcedRace.HAND_OVER_AFTER_A_NEW_GRANT,
            "handed over, but nobody asked for it",
            "a hand-over takes whatever grant the holder has now, not the one asked for",
            LockStatements.HAND_FROM,
            "and fencing_token = ?",
            "and (fencing_token = ? or true)"),

    LAPSED_ROW_DOES_NOT_BLOCK(
            ForcedRace.LEASE_LAPSES_BETWEEN_CLEAN_UP_AND_GRANT,
            "two conflicting locks live at once",
            "rule 1 reverted: a lapsed row no longer blocks a grant before it is deleted",
            LockStatements.grantAll(1),
            "where o.owner_id <> ? and",
            "where o.expires_at > statement_timestamp() and o.owner_id <> ? and"),

    SAVE_CHECK_WITHOUT_ROW_LOCK(
            ForcedRace.FORCE_RELEASE_DURING_A_SAVE,
            "after its lock ended",
            "the save's fencing check does not lock the row (FOR SHARE dropped)",
            LockStatements.VERIFY,
            "for share",
            "");

    /**
     * The interleaving that shows the bug, forced step by step; {@code null}: the torture's random
     * schedule shows it.
     */
    final ForcedRace race;

    /** A piece of the violation the checker must report for it: the rule that catches this bug. */
    final String caughtBy;

    final String description;
    private final String statement;

    /** Pairs: a piece of the statement, what it becomes. */
    private final String[] changes;

    PlantedBug(String caughtBy, String description, String statement, String... changes) {
        this(null, caughtBy, description, statement, changes);
    }

    PlantedBug(
            ForcedRace race,
            String caughtBy,
            String description,
            String statement,
            String... changes) {
        this.race = race;
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

    /** What the bug does, in a sentence. */
    public String description() {
        return description;
    }

    /** A piece of the violation the checker must report for this bug. */
    public String caughtBy() {
        return caughtBy;
    }

    /**
     * The rewrite as a node's data source reads it ({@code PlantedStatementsDataSource}): the text
     * a statement must contain ({@code match}), the part of it to change ({@code statement}, empty:
     * the whole text) and the pairs ({@code from.N}, {@code to.N}); the same rewrite as {@link
     * #rewrite()}.
     */
    public java.util.Properties spec() {
        rewrite(); // refuses a bug whose text to change is gone
        java.util.Properties p = new java.util.Properties();
        p.setProperty("name", name());
        boolean grant = statement.startsWith(GRANT);
        p.setProperty("match", grant ? GRANT : statement);
        p.setProperty("statement", grant ? "" : statement);
        for (int i = 0; i < changes.length; i += 2) {
            p.setProperty("from." + i / 2, changes[i]);
            p.setProperty("to." + i / 2, changes[i + 1]);
        }
        return p;
    }

    private static final String GRANT = "with request (resource_key, aggregate_key) as (values";
}
