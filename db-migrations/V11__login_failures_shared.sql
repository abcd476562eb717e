-- The login throttle's counts hold across nodes: every failed login, failed API token and successful login is one row
-- here, and every node replays the rows it has not seen (by id, like the lock history) into its own counts before it
-- answers a login. A guesser who spreads attempts over several nodes behind the proxy gets the allowance of one.
-- Rows older than the throttle's memory (15 minutes) are deleted by the node that writes.
create table login_event (
    id       bigserial   primary key,
    kind     char(1)     not null check (kind in ('F', 'S', 'T')), -- failed login, succeeded login, failed token
    login    varchar(64) not null,
    address  varchar(64) not null,
    at       timestamptz not null
);
create index login_event_at on login_event (at);
