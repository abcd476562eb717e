-- People who log in through the company's OpenID Connect provider. Such a person is known by the provider's issuer
-- and subject (never by a name the provider lets people choose); the first login creates them, with the login taken
-- from the provider's preferred_username. They keep no password here (password_hash is null: no password logs them
-- in), and their roles are the provider's groups mapped by LOCKS_OIDC_ROLE_MAP, written again at each login.
alter table app_user alter column password_hash drop not null;
alter table app_user add column oidc_issuer varchar(500);
alter table app_user add column oidc_subject varchar(255);
alter table app_user add constraint app_user_oidc_both check ((oidc_issuer is null) = (oidc_subject is null));
create unique index app_user_by_oidc on app_user (oidc_issuer, oidc_subject) where oidc_subject is not null;


-- The provider's back-channel logouts: a person who logged out at the provider (or whom it logged out) loses their
-- Editlock sessions on every node too; each node reads the newest rows twice a second. sid names one provider session
-- (only the Editlock sessions logged in through it end); without it, all of the person's provider sessions end.
create table provider_logout (
    id        bigserial    primary key,
    login     varchar(64)  not null references app_user (login) on delete cascade,
    sid       varchar(255),
    logged_at timestamptz  not null default now()
);

create index provider_logout_by_time on provider_logout (logged_at);
