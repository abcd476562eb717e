-- The take-over role: people who may take a lock from its holder, with a reason (admins may too). The history keeps
-- each take-over as a TAKEN_OVER line on the holder's token, followed by the taker's ACQUIRED.
alter table app_user_role drop constraint if exists app_user_role_role_check;
alter table app_user_role add constraint app_user_role_role_check check (role in ('editor', 'admin', 'take-over'));
