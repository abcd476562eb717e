-- A lease renewal and a viewer's renewal rewrite one timestamp of every live row, once a round: at 10,000 open tabs
-- that is 10,000 rows a second. While the timestamp is indexed, each such update writes a new entry into every index
-- of the table (five on app_lock), and the statement that renews a round grew with the dead entries it left
-- (0.5 s to 1.1 s in five rounds of 20,000 locks). Without an index on the timestamp, and with room left on each page,
-- PostgreSQL updates the row in place on its page (a heap-only tuple) and touches no index: the same round takes
-- 0.25 s, and stays there. What the indexes served is read by a scan instead: the sweep and the viewers' expiry, a
-- few milliseconds at these sizes, once a sweep interval.
drop index app_lock_by_expiry;
alter table app_lock set (fillfactor = 50);
drop index page_viewer_by_seen;
alter table page_viewer set (fillfactor = 50);
