package com.editlock.lock.internal;

import java.util.Collections;

/**
 * Every statement of the lock store, in one place, named after what it does. {@code ?} parameters
 * only: nothing here is built from user input (the grant's {@code values} list is sized by the
 * number of keys requested).
 *
 * <p>Rules the statements keep together:
 *
 * <ul>
 *   <li><b>A row blocks until it is deleted.</b> Expiry only makes a row deletable; the grant
 *       treats every row that is still there as held. So {@code app_lock} never holds two
 *       conflicting rows, whatever the clocks say, and a heartbeat that revives a lapsed row can
 *       never bring a conflict back to life.
 *   <li><b>One judge of expiry per acquisition:</b> the clean-up, run under the aggregate's
 *       advisory lock before the grant, deletes the aggregate's lapsed rows. A row that lapses
 *       after it simply still blocks (the refusal path sees it lapsed and tries again, and the next
 *       clean-up deletes it).
 *   <li><b>Rows are locked in id order</b> by every statement that locks several ({@code order by
 *       id for update}), so releases, clean-ups and renewals cannot deadlock with each other.
 *   <li>Times are {@code statement_timestamp()}: the database's clock, never the application
 *       server's.
 * </ul>
 */
final class LockStatements {

    private LockStatements() {}

    static final String COLUMNS =
            """
            resource_key, aggregate_key, mode, owner_id, owner_view, user_login, display_name, acquired_at, \
            renewed_at, expires_at, fencing_token""";

    /**
     * Serializes acquisitions inside one aggregate until the transaction ends. Parameter: the
     * aggregate key.
     */
    static final String SERIALIZE_AGGREGATE =
            "select pg_advisory_xact_lock(hashtextextended(?, 0))";

    /**
     * Deletes the aggregate's lapsed rows and audits them as expired. Parameter: the aggregate key.
     */
    static final String CLEAN_UP_AGGREGATE =
            """
            with gone as (
                delete from app_lock where id in (
                    select id from app_lock where aggregate_key = ? and expires_at <= statement_timestamp()
                    order by id for update)
                returning *)
            insert into lock_event (event_type, resource_key, aggregate_key, mode, owner_id, user_login, display_name,
                                    fencing_token)
            select 'EXPIRED', resource_key, aggregate_key, mode, owner_id, user_login, display_name, fencing_token
            from gone""";

    /**
     * Grants every requested key or none, and audits each grant. Blocked when another owner has a
     * row (live or not: see above) on the same key, on the aggregate, or (when the aggregate is
     * requested) anywhere inside it, with one of the two in WRITE mode. Re-acquiring one's own lock
     * keeps its token, moves it to the new tab and upgrades READ to WRITE. Parameters: (key,
     * aggregate) per request, then owner id, mode, mode, owner id, view, login, display name, lease
     * seconds, then owner id and the session's cap on locks, then the maximum age in seconds. A
     * session over its cap gets nothing. Re-taking one's own lock (opening the record again) when
     * the new lease would pass the lock's maximum age starts its age again: the cap is on
     * heartbeats alone, not on a person who comes back.
     */
    private static final String GRANT_ALL =
            """
            with request (resource_key, aggregate_key) as (values %s),
            blocked as (
                select 1 from request r join app_lock o on o.aggregate_key = r.aggregate_key
                where o.owner_id <> ? and (o.mode = 'WRITE' or ? = 'WRITE')
                  and (o.resource_key = r.resource_key or o.resource_key = o.aggregate_key
                       or r.resource_key = o.aggregate_key)
                limit 1),
            granted as (
                insert into app_lock (resource_key, aggregate_key, mode, owner_id, owner_view, user_login,
                                      display_name, expires_at)
                select r.resource_key, r.aggregate_key, ?, ?, ?, ?, ?,
                       statement_timestamp() + make_interval(secs => ?)
                from request r where not exists (select 1 from blocked)
                  and (select count(*) from app_lock a where a.owner_id = ?
                       and not exists (select 1 from request q where q.resource_key = a.resource_key))
                      + (select count(*) from request) <= ?
                on conflict (resource_key, owner_id) do update set
                    owner_view = excluded.owner_view, renewed_at = statement_timestamp(),
                    expires_at = excluded.expires_at,
                    acquired_at = case when app_lock.acquired_at + make_interval(secs => ?) < excluded.expires_at
                                       then statement_timestamp() else app_lock.acquired_at end,
                    mode = case when excluded.mode = 'WRITE' then 'WRITE' else app_lock.mode end
                returning *, (xmax = 0) as inserted),
            audited as (
                insert into lock_event (event_type, resource_key, aggregate_key, mode, owner_id, user_login,
                                        display_name, fencing_token)
                select case when inserted then 'ACQUIRED' else 'REACQUIRED' end, resource_key, aggregate_key, mode,
                       owner_id, user_login, display_name, fencing_token
                from granted)
            select %s from granted order by resource_key""";

    static String grantAll(int keys) {
        return String.format(
                GRANT_ALL, String.join(", ", Collections.nCopies(keys, "(?, ?)")), COLUMNS);
    }

    /**
     * Who is in the way of a refused grant: every other owner's conflicting row, with whether it is
     * still live. Parameters: aggregate, owner id, mode, key, key.
     */
    static final String CONFLICTS =
            "select "
                    + COLUMNS
                    + ", expires_at > statement_timestamp() as live"
                    + """
             from app_lock o
            where o.aggregate_key = ? and o.owner_id <> ? and (o.mode = 'WRITE' or ? = 'WRITE')
              and (o.resource_key = ? or o.resource_key = o.aggregate_key or ? = o.aggregate_key)
            order by o.acquired_at, o.resource_key""";

    /**
     * How many locks an owner holds, apart from the given keys. Parameters: owner id, keys (an
     * array).
     */
    static final String HELD_APART_FROM =
            """
            select count(*) from app_lock where owner_id = ? and resource_key <> all (?)""";

    /**
     * How long the same refusal (one owner, record and mode) is audited by one row: repeats within
     * it are counted on that row.
     */
    static final int DENIAL_WINDOW_SECONDS = 60;

    /**
     * Audits a refusal: counted on the row of the same refusal within the last {@link
     * #DENIAL_WINDOW_SECONDS}, else a new row. Parameters: key, owner id, mode, then key,
     * aggregate, mode, owner id, login, display name.
     */
    static final String AUDIT_DENIAL =
            """
            with repeated as (
                update lock_event set repeats = repeats + 1
                 where id = (select id from lock_event
                              where resource_key = ? and event_type = 'DENIED' and owner_id = ? and mode = ?
                                and occurred_at > clock_timestamp() - make_interval(secs => %d)
                              order by occurred_at desc limit 1)
                returning id)
            insert into lock_event (event_type, resource_key, aggregate_key, mode, owner_id, user_login, display_name)
            select 'DENIED', ?, ?, ?, ?, ?, ?
             where not exists (select 1 from repeated)"""
                    .formatted(DENIAL_WINDOW_SECONDS);

    /**
     * Deletes the rows a condition selects, locking them in id order, and audits each with one
     * event type, actor and reason; returns the deleted rows. Parameters: the condition's, then
     * event type, actor, reason.
     */
    private static String deleteAndAudit(String condition) {
        return """
                with gone as (
                    delete from app_lock where id in (select id from app_lock where %s order by id for update)
                    returning *),
                audited as (
                    insert into lock_event (event_type, resource_key, aggregate_key, mode, owner_id, user_login,
                                            display_name, fencing_token, actor, reason)
                    select ?, resource_key, aggregate_key, mode, owner_id, user_login, display_name, fencing_token,
                           ?, ?
                    from gone)
                select %s from gone order by resource_key"""
                .formatted(condition, COLUMNS);
    }

    /** Parameters: key, owner id, view, view (a {@code null} view: whichever tab). */
    static final String RELEASE =
            deleteAndAudit(
                    "resource_key = ? and owner_id = ? and (? :: varchar is null or owner_view = ?)");

    /** Parameters: owner id, view. */
    static final String RELEASE_VIEW = deleteAndAudit("owner_id = ? and owner_view = ?");

    /** Parameter: owner id. */
    static final String RELEASE_ALL = deleteAndAudit("owner_id = ?");

    /**
     * Every lock held by a session (not by an API token): the last node of a grid stops. No
     * parameters of its own.
     */
    static final String RELEASE_SESSIONS =
            deleteAndAudit(
                    "not exists (select 1 from api_token t where t.owner_id = app_lock.owner_id)");

    /** Parameter: key. */
    static final String FORCE_RELEASE = deleteAndAudit("resource_key = ?");

    /**
     * The take-over's release: the other owners' rows on the key (the taker's own stay).
     * Parameters: key, taker's owner id.
     */
    static final String TAKE_FROM = deleteAndAudit("resource_key = ? and owner_id <> ?");

    /**
     * The hand-over's release: the holder's live grant on the key, by its token, and nothing else.
     * Parameters: key, holder's owner id, token.
     */
    static final String HAND_FROM =
            deleteAndAudit(
                    "resource_key = ? and owner_id = ? and fencing_token = ?"
                            + " and expires_at > statement_timestamp()");

    /**
     * One batch of the sweep: lapsed rows, in no order, skipping rows another transaction has
     * locked (another node's sweep, a save under way), so two sweeps never wait for each other or
     * audit a row twice. Parameter: batch size. No index holds {@code expires_at} (renewals rewrite
     * rows in place, V14), so a batch is a scan that stops at its size: asked for the oldest first,
     * every batch sorted the whole table, and a backlog of 100,000 took 46 s instead of 6 s.
     */
    static final String SWEEP_BATCH =
            """
            with gone as (
                delete from app_lock where id in (
                    select id from app_lock where expires_at <= statement_timestamp()
                    limit ? for update skip locked)
                returning *)
            insert into lock_event (event_type, resource_key, aggregate_key, mode, owner_id, user_login, display_name,
                                    fencing_token)
            select 'EXPIRED', resource_key, aggregate_key, mode, owner_id, user_login, display_name, fencing_token
            from gone
            returning resource_key""";

    /**
     * Extends the leases of every beating tab (or session) in one statement, each to a lease after
     * its own beat, never past a lock's maximum age and never shorter than it was, and audits those
     * that had lapsed. A lock at its maximum age is not renewed. Parameters: owner ids, views
     * (null: all the owner's tabs) and beat ages in milliseconds, as three arrays of one beat each;
     * maximum age in seconds, lease seconds, maximum age in seconds. Returns, per beat (its place
     * in the arrays, from 1), how many locks it renewed; a beat that renewed nothing has no row. A
     * tab's beat is joined to the locks by owner and tab, a session's by owner: a round of
     * thousands is two hash joins, and a tab's beat never meets its session's other tabs' locks
     * (joined by owner alone and filtered after, 20,000 beats of 50-tab sessions met a million
     * rows). The update touches no indexed column, so each row is rewritten in place (V14).
     */
    static final String RENEW =
            """
            with beat as (
                select * from unnest(? :: varchar[], ? :: varchar[], ? :: bigint[])
                              with ordinality as b(owner_id, owner_view, ago_ms, n)),
            matched as (
                select id, min(ago_ms) as ago_ms, array_agg(n) as beats
                from (select a.id, a.acquired_at, b.ago_ms, b.n
                      from beat b join app_lock a on a.owner_id = b.owner_id and a.owner_view = b.owner_view
                      union all
                      select a.id, a.acquired_at, b.ago_ms, b.n
                      from beat b join app_lock a on a.owner_id = b.owner_id
                      where b.owner_view is null) j
                where acquired_at + make_interval(secs => ?) > statement_timestamp()
                group by id),
            mine as (
                select a.id, a.expires_at <= statement_timestamp() as lapsed, m.ago_ms, m.beats
                from app_lock a join matched m on m.id = a.id
                order by a.id for update of a),
            renewed as (
                update app_lock a set renewed_at = statement_timestamp(),
                                      expires_at = least(greatest(a.expires_at, statement_timestamp()
                                                                  + make_interval(secs => ? :: float8 - m.ago_ms / 1000.0 :: float8)),
                                                         a.acquired_at + make_interval(secs => ?))
                from mine m where a.id = m.id
                returning a.*, m.lapsed, m.beats),
            audited as (
                insert into lock_event (event_type, resource_key, aggregate_key, mode, owner_id, user_login,
                                        display_name, fencing_token)
                select 'RENEWED_AFTER_LAPSE', resource_key, aggregate_key, mode, owner_id, user_login, display_name,
                       fencing_token
                from renewed where lapsed)
            select n, count(*) from renewed, unnest(beats) as n group by n""";

    /**
     * The fencing check: the owner's live row with that token, locked FOR SHARE so that no release,
     * sweep or force release can delete it before the caller's save commits. Parameters: key, owner
     * id, token.
     */
    static final String VERIFY =
            "select "
                    + COLUMNS
                    + """
             from app_lock
            where resource_key = ? and owner_id = ? and fencing_token = ? and expires_at > statement_timestamp()
            for share""";

    /**
     * How a token's lock ended, with the admin's name for a force release. Parameters: key, token.
     */
    static final String HOW_IT_ENDED =
            """
            select e.event_type, coalesce(u.display_name, e.actor), e.reason
            from lock_event e left join app_user u on u.login = e.actor
            where e.resource_key = ? and e.fencing_token = ?
              and e.event_type in ('RELEASED', 'VIEW_CLOSED', 'SESSION_ENDED', 'EXPIRED', 'FORCE_RELEASED',
                                   'TAKEN_OVER', 'HANDED_OVER')
            order by e.id desc limit 1""";

    /** The live lock on a key: the writer, else the oldest reader. Parameter: key. */
    static final String HOLDER =
            "select "
                    + COLUMNS
                    + """
             from app_lock where resource_key = ? and expires_at > statement_timestamp()
            order by mode = 'WRITE' desc, acquired_at limit 1""";

    /** Parameter: aggregate key. */
    static final String LOCKS_IN =
            "select "
                    + COLUMNS
                    + """
             from app_lock where aggregate_key = ? and expires_at > statement_timestamp()
            order by acquired_at, resource_key""";

    /** The live locks inside any of the aggregates. Parameters: aggregate keys (an array). */
    static final String LOCKS_IN_ANY =
            "select "
                    + COLUMNS
                    + """
             from app_lock where aggregate_key = any (?) and expires_at > statement_timestamp()
            order by acquired_at, resource_key""";

    /**
     * The owner's live row with that token, without locking it. Parameters: key, owner id, token.
     */
    static final String STILL_HELD =
            "select "
                    + COLUMNS
                    + """
             from app_lock
            where resource_key = ? and owner_id = ? and fencing_token = ? and expires_at > statement_timestamp()""";

    /** Parameter: owner id. */
    static final String LOCKS_OF =
            "select "
                    + COLUMNS
                    + """
             from app_lock where owner_id = ? and expires_at > statement_timestamp()
            order by acquired_at, resource_key""";

    /**
     * The history after an event id, oldest first, for the feed that tells every node's screens.
     * Parameters: id, limit.
     */
    static final String HISTORY_AFTER =
            """
            select id, occurred_at, event_type, resource_key, aggregate_key, owner_id, user_login, display_name,
                   fencing_token, actor, reason
            from lock_event where id > ? order by id limit ?""";

    static final String LAST_EVENT_ID = "select coalesce(max(id), 0) from lock_event";

    /** Parameter: login. */
    static final String FORCE_RELEASE_USER = deleteAndAudit("user_login = ?");

    /**
     * The live locks a dashboard page shows, filtered. Parameters: user, user pattern, user
     * pattern, key pattern, key pattern, minimum age, minimum age. The order and the window are
     * appended by {@link #findPage}.
     */
    private static final String FIND_WHERE =
            """
             from app_lock
            where expires_at > statement_timestamp()
              and (? :: varchar is null or user_login ilike ? or display_name ilike ?)
              and (? :: varchar is null or resource_key ~ ?)
              and (? :: int is null or acquired_at <= statement_timestamp() - make_interval(secs => ?))""";

    static final String FIND_COUNT = "select count(*)" + FIND_WHERE;

    /** {@code orderBy} comes from a fixed list of columns, never from a request. */
    static String findPage(String orderBy, boolean descending) {
        return "select "
                + COLUMNS
                + FIND_WHERE
                + "\norder by "
                + orderBy
                + (descending ? " desc" : " asc")
                + ", id limit ? offset ?";
    }

    static final String SUMMARY =
            """
            select (select count(*) from app_lock where expires_at > statement_timestamp()),
                   (select coalesce(sum(1 + repeats), 0) from lock_event where event_type = 'DENIED'
                      and occurred_at > statement_timestamp() - interval '1 hour'),
                   (select count(*) from lock_event where event_type = 'FORCE_RELEASED'
                      and occurred_at > statement_timestamp() - interval '1 hour'),
                   (select min(acquired_at) from app_lock where expires_at > statement_timestamp())""";

    /**
     * The history, filtered. Parameters: resource, resource, user, user, user, type, type, from,
     * from, until, until.
     */
    private static final String HISTORY_WHERE =
            """
             from lock_event
            where (? :: varchar is null or resource_key = ?)
              and (? :: varchar is null or user_login = ? or actor = ?)
              and (? :: varchar is null or event_type = ?)
              and (? :: timestamptz is null or occurred_at >= ?)
              and (? :: timestamptz is null or occurred_at < ?)""";

    static final String HISTORY_COUNT = "select count(*)" + HISTORY_WHERE;

    /** Parameters: those of the filter, then limit, offset. */
    static final String HISTORY_PAGE =
            """
            select id, occurred_at, event_type, resource_key, mode, user_login, display_name, fencing_token, actor,
                   reason, repeats"""
                    + HISTORY_WHERE
                    + "\norder by id desc limit ? offset ?";

    /** One batch of the retention purge. Parameters: days, batch size. */
    static final String PURGE_HISTORY_BATCH =
            """
            delete from lock_event where id in (
                select id from lock_event where occurred_at < statement_timestamp() - make_interval(days => ?)
                order by id limit ?)""";

    /** Parameters: key, key (a {@code null} key: all resources), limit. */
    static final String HISTORY =
            """
            select id, occurred_at, event_type, resource_key, mode, user_login, display_name, fencing_token, actor,
                   reason, repeats
            from lock_event where (? :: varchar is null or resource_key = ?)
            order by id desc limit ?""";

    /** The newest line of a key's history that ends a lock. Parameter: the key. */
    static final String LAST_ENDING =
            """
            select id, occurred_at, event_type, resource_key, mode, user_login, display_name, fencing_token, actor,
                   reason, repeats
            from lock_event where resource_key = ? and event_type in ("""
                    + java.util.Arrays.stream(com.editlock.lock.LockEventType.values())
                            .filter(com.editlock.lock.LockEventType::endsLock)
                            .map(t -> "'" + t.name() + "'")
                            .collect(java.util.stream.Collectors.joining(", "))
                    + ")\norder by id desc limit 1";

    // ---- Hand-over requests (JdbcHandovers) ----

    static final String HANDOVER_COLUMNS =
            """
            id, resource_key, holder_owner_id, holder_login, holder_name, holder_token, asker_owner_id, asker_login, \
            asker_name, asker_view, note, state, reply, asked_at, expires_at, answered_at""";

    /** A step's history line, on the holder's grant, from the rows of {@code changed}. */
    private static String handoverAudited(String eventType) {
        return """
                audited as (
                    insert into lock_event (event_type, resource_key, aggregate_key, mode, owner_id, user_login,
                                            display_name, fencing_token, actor, reason)
                    select '%s', resource_key, aggregate_key, 'WRITE', holder_owner_id, holder_login, holder_name,
                           holder_token, asker_login, %s
                    from changed)"""
                .formatted(eventType, eventType.equals("HANDOVER_DECLINED") ? "reply" : "note");
    }

    /**
     * The request and its line, if someone else holds a live WRITE lock on the key. The holder's
     * row is locked for share, so the lock cannot end between being read and being asked for (its
     * end's line comes after the request's). Parameters: key, asker's owner id, asker's login;
     * asker's owner id, login, name, view, note, timeout seconds.
     */
    static final String HANDOVER_ASK =
            """
            with holder as (
                select * from app_lock
                where resource_key = ? and mode = 'WRITE' and expires_at > statement_timestamp()
                  and owner_id <> ? and user_login <> ?
                for share),
            changed as (
                insert into handover_request (resource_key, aggregate_key, holder_owner_id, holder_login, holder_name,
                                              holder_token, asker_owner_id, asker_login, asker_name, asker_view, note,
                                              expires_at)
                select resource_key, aggregate_key, owner_id, user_login, display_name, fencing_token, ?, ?, ?, ?, ?,
                       statement_timestamp() + make_interval(secs => ?)
                from holder
                on conflict (asker_login, resource_key) where state = 'OPEN' do nothing
                returning *),
            """
                    + handoverAudited("HANDOVER_ASKED")
                    + "\nselect "
                    + HANDOVER_COLUMNS
                    + " from changed";

    /** Parameters: asker's login, key. */
    static final String HANDOVER_ASKED_LATELY =
            """
            select count(*) filter (where state = 'OPEN'),
                   count(*) filter (where resource_key = ? and asked_at > statement_timestamp() - make_interval(mins => ?))
            from handover_request where asker_login = ? and (state = 'OPEN' or asked_at > statement_timestamp() - make_interval(mins => ?))""";

    /** Parameters: new state, reply, id. The request must be open. */
    private static String handoverClosed(String eventType) {
        return """
                with changed as (
                    update handover_request set state = ?, reply = ?, answered_at = statement_timestamp()
                    where id = ? and state = 'OPEN'
                    returning *),
                """
                + handoverAudited(eventType)
                + "\nselect "
                + HANDOVER_COLUMNS
                + " from changed";
    }

    static final String HANDOVER_DECLINE = handoverClosed("HANDOVER_DECLINED");

    static final String HANDOVER_WITHDRAW = handoverClosed("HANDOVER_WITHDRAWN");

    /** Times out the open requests past their time. */
    static final String HANDOVER_TIME_OUT =
            """
            with changed as (
                update handover_request set state = 'TIMED_OUT', answered_at = statement_timestamp()
                where id in (select id from handover_request
                             where state = 'OPEN' and expires_at <= statement_timestamp()
                             order by id for update skip locked)
                returning *),
            """
                    + handoverAudited("HANDOVER_TIMED_OUT")
                    + "\nselect count(*) from changed";

    /**
     * Ends the open requests whose grant is gone (its row deleted: released, swept, taken, handed
     * over). A lapsed row that is still there may yet be renewed, so it keeps its requests.
     */
    static final String HANDOVER_END_ORPHANS =
            """
            update handover_request r set state = 'ENDED', answered_at = statement_timestamp()
            where r.id in (select id from handover_request q
                           where q.state = 'OPEN'
                             and not exists (select 1 from app_lock l where l.fencing_token = q.holder_token)
                           order by q.id for update skip locked)""";

    /** Hand-over: a request's columns, by a condition. */
    static String handoverWhere(String condition) {
        return "select " + HANDOVER_COLUMNS + " from handover_request where " + condition;
    }

    /** Hand-over: the request, by id. */
    static final String HANDOVER_BY_ID = handoverWhere("id = ?");

    /** Hand-over: the request, by id, locked for its answer. */
    static final String HANDOVER_BY_ID_LOCKED = handoverWhere("id = ? for update");

    /** Hand-over: the request, for its holder or its asker. Parameters: id, owner id, owner id. */
    static final String HANDOVER_FOR_PARTY =
            handoverWhere("id = ? and (holder_owner_id = ? or asker_owner_id = ?)");

    /** Hand-over: the open requests one tab made. Parameters: asker's owner id, view. */
    static final String HANDOVER_OPEN_FROM_VIEW =
            handoverWhere("state = 'OPEN' and asker_owner_id = ? and asker_view = ?");

    /** Hand-over: the open requests to a grant, oldest first. Parameter: the holder's token. */
    static final String HANDOVER_OPEN_TO =
            handoverWhere("holder_token = ? and state = 'OPEN' order by id");

    /** Hand-over: an asker's newest request for a key. Parameters: owner id, key. */
    static final String HANDOVER_LATEST =
            handoverWhere("asker_owner_id = ? and resource_key = ? order by id desc limit 1");

    /** Hand-over: the open requests for any of the keys. Parameter: the keys. */
    static final String HANDOVER_OPEN_FOR =
            handoverWhere("state = 'OPEN' and resource_key = any(?) order by id");

    /** Hand-over: one request, timed out now. Parameter: id. */
    static final String HANDOVER_TIME_OUT_ONE =
            HANDOVER_TIME_OUT.replace("expires_at <= statement_timestamp()", "id = ?");

    /** Hand-over: a request whose grant ended before it was answered. Parameter: id. */
    static final String HANDOVER_END =
            "update handover_request set state = 'ENDED', answered_at = statement_timestamp() where id = ?";

    /** Hand-over: handed over, with the reply. Parameters: reply, id. */
    static final String HANDOVER_HANDED_OVER =
            """
            update handover_request set state = 'HANDED_OVER', reply = ?, answered_at = statement_timestamp()
            where id = ?""";

    /**
     * Hand-over: the other open requests to a grant that was handed over end with it; one being
     * answered right now (locked) is skipped. Parameter: the holder's token.
     */
    static final String HANDOVER_END_OTHERS =
            """
            update handover_request set state = 'ENDED', answered_at = statement_timestamp()
            where id in (select id from handover_request where holder_token = ? and state = 'OPEN' for update skip locked)""";

    /** Hand-over: answered requests asked more than some days ago. Parameter: days. */
    static final String HANDOVER_PURGE =
            """
            delete from handover_request where state <> 'OPEN'
              and asked_at < statement_timestamp() - make_interval(days => ?)""";

    // ---- Operations (LockMetrics, LockStoreReadiness) ----

    /** The live locks by kind of record, for the metrics. */
    static final String HELD_BY_KIND =
            """
            select case when resource_key like 'item:%' then 'ITEM_FILTERS'
                        when resource_key like '%:variables' then 'CONFIGURATOR_VARIABLES'
                        else 'CONFIGURATOR' end,
                   count(*)
            from app_lock where expires_at > statement_timestamp() group by 1""";

    /** Whether the store answers at all (the readiness check). */
    static final String ANSWERS = "select 1 from app_lock limit 1";
}
