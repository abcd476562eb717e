-- Editlock lock core: the app_lock table is the referee for every edit lock (DESIGN §3).

create sequence lock_fencing_token_seq;

create table app_lock (
    id             bigserial    primary key,
    resource_key   varchar(200) not null,
    -- the resource key of the aggregate the resource belongs to (equal to resource_key for the aggregate itself)
    aggregate_key  varchar(200) not null,
    mode           varchar(5)   not null check (mode in ('READ', 'WRITE')),
    owner_id       varchar(64)  not null,
    owner_view     varchar(64),
    user_login     varchar(64)  not null,
    display_name   varchar(200) not null,
    acquired_at    timestamptz  not null default statement_timestamp(),
    renewed_at     timestamptz  not null default statement_timestamp(),
    expires_at     timestamptz  not null,
    fencing_token  bigint       not null default nextval('lock_fencing_token_seq'),
    constraint app_lock_one_row_per_owner unique (resource_key, owner_id)
);

-- At most one WRITE lock per resource: the database, not the application, is the referee.
create unique index app_lock_one_writer on app_lock (resource_key) where mode = 'WRITE';
-- The reverse indexes: what does this session / this tab hold (one indexed DELETE on disconnect).
create index app_lock_by_owner on app_lock (owner_id);
create index app_lock_by_view on app_lock (owner_view) where owner_view is not null;
-- The hierarchy check of one aggregate, and the sweep.
create index app_lock_by_aggregate on app_lock (aggregate_key);
create index app_lock_by_expiry on app_lock (expires_at);

-- Append-only audit history of every grant, denial and release with its cause.
create table lock_event (
    id            bigserial    primary key,
    occurred_at   timestamptz  not null default clock_timestamp(),
    event_type    varchar(32)  not null,
    resource_key  varchar(200) not null,
    mode          varchar(5),
    owner_id      varchar(64),
    user_login    varchar(64),
    display_name  varchar(200),
    fencing_token bigint,
    actor         varchar(64),
    reason        varchar(500)
);
create index lock_event_by_time on lock_event (occurred_at);
create index lock_event_by_resource on lock_event (resource_key, occurred_at);

-- Every node learns of every grant and release, whichever path caused it (a DBA's manual DELETE included).
create function app_lock_notify() returns trigger language plpgsql as $$
declare
    r app_lock;
begin
    if tg_op = 'DELETE' then r := old; else r := new; end if;
    perform pg_notify('app_lock', json_build_object(
        'op', lower(tg_op),
        'resource', r.resource_key,
        'aggregate', r.aggregate_key,
        'mode', r.mode,
        'user', r.user_login,
        'token', r.fencing_token)::text);
    return null;
end;
$$;

create trigger app_lock_changed
    after insert or delete on app_lock
    for each row execute function app_lock_notify();
