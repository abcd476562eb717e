-- Users for Jakarta Security's database identity store (PBKDF2 hashes, never plain text).
create table app_user (
    login         varchar(64)  primary key check (login ~ '^[a-z][a-z0-9._-]{0,63}$'),
    display_name  varchar(200) not null,
    password_hash varchar(500) not null,
    created_at    timestamptz  not null default now()
);

create table app_user_role (
    login varchar(64) not null references app_user (login) on delete cascade,
    role  varchar(32) not null check (role in ('editor', 'admin')),
    primary key (login, role)
);

-- The shared version token of one aggregate (Fowler's coarse-grained lock): a configurator,
-- its items and its variables all point to one row.
create table aggregate_version (
    id          bigserial   primary key,
    value       bigint      not null default 1,
    modified_by varchar(64),
    modified_at timestamptz not null default now()
);

create table configurator (
    id          bigserial    primary key,
    version_id  bigint       not null unique references aggregate_version (id),
    name        varchar(120) not null,
    description varchar(2000) not null default '',
    status      varchar(16)  not null default 'DRAFT' check (status in ('DRAFT', 'ACTIVE', 'RETIRED'))
);

create table configurator_item (
    id              bigserial     primary key,
    configurator_id bigint        not null references configurator (id) on delete cascade,
    version_id      bigint        not null references aggregate_version (id),
    position        integer       not null,
    name            varchar(120)  not null,
    price           numeric(12,2) not null default 0 check (price >= 0)
);
create index configurator_item_by_configurator on configurator_item (configurator_id, position);

create table item_filter (
    id         bigserial    primary key,
    item_id    bigint       not null references configurator_item (id) on delete cascade,
    version_id bigint       not null references aggregate_version (id),
    position   integer      not null,
    rule       varchar(500) not null
);
create index item_filter_by_item on item_filter (item_id, position);

create table configurator_variable (
    id              bigserial    primary key,
    configurator_id bigint       not null references configurator (id) on delete cascade,
    version_id      bigint       not null references aggregate_version (id),
    name            varchar(120) not null,
    type            varchar(16)  not null check (type in ('TEXT', 'NUMBER', 'BOOLEAN')),
    value           varchar(500) not null default '',
    constraint configurator_variable_unique_name unique (configurator_id, name)
);
