-- Saving an aggregate rewrites its variables in one transaction; swapping two names must not trip the unique
-- constraint halfway through, so it is checked at commit.
alter table configurator_variable drop constraint configurator_variable_unique_name;
alter table configurator_variable add constraint configurator_variable_unique_name
    unique (configurator_id, name) deferrable initially deferred;
