-- A refusal is audited once a minute per person, record and mode: the same session refused the same lock again
-- within 60 s of the row adds one to that row's repeats instead of writing another (a script that retries in a loop
-- wrote a row per try: 2,000 refusals, 2,000 rows in 7.7 s). The history shows the count; the dashboard's
-- refusals of the last hour add the repeats in.
alter table lock_event add column repeats integer not null default 0;
