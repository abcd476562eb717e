-- People are managed by admins on the people screen and through /api/people. A person who is disabled keeps their row
-- (the history names them), but logs in by no path, their API tokens are refused and their sessions end on every node.
-- Every change to a person is kept in person_change with the admin who made it; nodes read its newest rows to end the
-- sessions of someone just disabled.
alter table app_user add column disabled_at timestamptz;
alter table app_user add column disabled_by varchar(64);
alter table app_user add column disabled_reason varchar(500);
-- When the person last made a request, to the minute (a login, a session's roles read again, an API token used).
alter table app_user add column last_seen_at timestamptz;

create table person_change (
    id         bigserial    primary key,
    login      varchar(64)  not null references app_user (login) on delete cascade,
    changed_by varchar(64)  not null,
    changed_at timestamptz  not null default now(),
    change     varchar(16)  not null check (change in ('added', 'roles', 'password', 'disabled', 'enabled')),
    detail     varchar(500) not null default ''
);

create index person_change_by_login on person_change (login, id);

-- Every node reads who was disabled in the last minutes, twice a second.
create index app_user_disabled on app_user (disabled_at) where disabled_at is not null;
