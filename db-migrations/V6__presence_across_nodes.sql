-- Who is looking at which record, on every node: one row per open page (tab) that shows a record. Each node renews
-- the rows of its own pages in one statement per interval; rows of a node that died stop being renewed and are
-- removed after the lease by whichever node sweeps first.
create table page_viewer (
    view_token    varchar(64)  primary key,
    resource_key  varchar(200) not null,
    owner_id      varchar(64)  not null,
    user_login    varchar(64)  not null,
    display_name  varchar(200) not null,
    node_id       varchar(64)  not null,
    seen_at       timestamptz  not null default statement_timestamp()
);
create index page_viewer_by_resource on page_viewer (resource_key);
create index page_viewer_by_node on page_viewer (node_id);
create index page_viewer_by_seen on page_viewer (seen_at);

-- Each change of who looks at a record, read by every node a few times a second (as lock_event is) so that the open
-- pages of that record look again. Kept for a minute.
create table presence_change (
    id            bigserial    primary key,
    resource_key  varchar(200) not null,
    changed_at    timestamptz  not null default clock_timestamp()
);
create index presence_change_by_time on presence_change (changed_at);
