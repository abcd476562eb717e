-- What an editor typed and has not saved, one row per person and record: written by the page as the person types,
-- read back when they open the record again, deleted by a successful save or by the person, purged after
-- locks.draft.retention.days. Never part of the record itself, and readable by its author only.
create table edit_draft (
    user_login   varchar(64)  not null references app_user (login) on delete cascade,
    resource_key varchar(200) not null,
    fields       text         not null,
    base         text         not null,
    saved_at     timestamptz  not null default now(),
    primary key (user_login, resource_key)
);
create index edit_draft_by_time on edit_draft (saved_at);
