-- Every grant and release writes app_lock and lock_event, so every index on them is paid for on every lock operation
-- (the benchmarks' profile: the lock row and its audit line are most of a pair's cost). Two were never read:
-- a tab's locks are found through the owner's index (owner_id = ? and owner_view = ?: a session holds few locks),
-- and the history is read by id (the feed), by resource and by time, never by aggregate.
drop index app_lock_by_view;
drop index lock_event_by_aggregate;
