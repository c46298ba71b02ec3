-- A console's push token belongs to the session that registered it: when that session ends (signed out here or
-- from another phone, expired, the member blocked), the phone stops hearing of the network's notifications.
-- Tokens registered before this migration name no session and follow any live session of their member.
ALTER TABLE user_push_tokens ADD COLUMN session_id uuid REFERENCES sessions(id);
