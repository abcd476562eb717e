-- Personal API tokens: a script calls the API with "Authorization: Bearer <token>" instead of a password. Only the
-- SHA-256 of the token is stored (the token is shown once, when it is made); a token is a random 256-bit secret, so
-- one hash is enough and costs microseconds, where a password needs PBKDF2. Every token is its own lock owner
-- (owner_id), so the locks a script takes outlive no revocation: revoking a token releases them.
create table api_token (
    id           bigserial    primary key,
    login        varchar(64)  not null references app_user (login) on delete cascade,
    name         varchar(100) not null,
    token_hash   char(64)     not null unique,
    hint         varchar(16)  not null,
    owner_id     varchar(64)  not null unique,
    created_at   timestamptz  not null default now(),
    created_by   varchar(64)  not null,
    expires_at   timestamptz  not null,
    last_used_at timestamptz,
    revoked_at   timestamptz,
    revoked_by   varchar(64),
    check ((revoked_at is null) = (revoked_by is null))
);
create index api_token_by_login on api_token (login);
