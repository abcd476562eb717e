-- Requests to hand a lock over: a person asks the holder of a WRITE lock for it, with an optional note; the holder
-- hands it over (the lock passes to the asker in the same transaction, with nobody in between) or keeps editing (with
-- an optional reply); a request nobody answers times out after locks.handover.timeout.seconds. A request is about one
-- grant of the lock (holder_token): when that lock ends any other way, its open requests end with it. Each step is
-- also a lock_event line (HANDOVER_ASKED, HANDED_OVER, HANDOVER_DECLINED, HANDOVER_TIMED_OUT), which is how every open
-- page hears of it.
create table handover_request (
    id              bigserial    primary key,
    resource_key    varchar(200) not null,
    aggregate_key   varchar(200) not null,
    holder_owner_id varchar(64)  not null,
    holder_login    varchar(64)  not null,
    holder_name     varchar(200) not null,
    holder_token    bigint       not null,
    asker_owner_id  varchar(64)  not null,
    asker_login     varchar(64)  not null,
    asker_name      varchar(200) not null,
    asker_view      varchar(64),
    note            varchar(500),
    state           varchar(16)  not null default 'OPEN'
        check (state in ('OPEN', 'HANDED_OVER', 'DECLINED', 'TIMED_OUT', 'WITHDRAWN', 'ENDED')),
    reply           varchar(500),
    asked_at        timestamptz  not null default statement_timestamp(),
    expires_at      timestamptz  not null,
    answered_at     timestamptz
);
-- One open request per person and record.
create unique index handover_request_one_open on handover_request (asker_login, resource_key) where state = 'OPEN';
create index handover_request_open_by_token on handover_request (holder_token) where state = 'OPEN';
create index handover_request_by_asker on handover_request (asker_login, asked_at);
create index handover_request_by_time on handover_request (asked_at);
