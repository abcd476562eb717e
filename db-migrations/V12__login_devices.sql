-- Browsers and clients that have logged in as a user (OWASP's device cookies): the random value of the cookie a
-- successful login set, kept as its SHA-256 only. Presented again with that user's name, it lets the login past the
-- throttle of its address and of the name at that address, so a guesser at the same address (an office behind one
-- address, a colleague) never keeps the person out of their own browser. A device's own failed logins are counted
-- here; past five it is no longer trusted. Rows older than 90 days, and beyond a user's newest 20, are deleted by
-- the node that issues a new one.
create table login_device (
    token_hash  bytea        primary key,
    login       varchar(64)  not null references app_user (login) on delete cascade,
    issued_at   timestamptz  not null,
    failures    int          not null default 0
);
create index login_device_login on login_device (login, issued_at);
