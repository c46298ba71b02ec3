-- When a command was last put on the channel again, and how often: a command the phone has not confirmed
-- is published again after a while, less often each time (the phone answers one it already carried out
-- with the outcome it recorded, so a lost report heals).
ALTER TABLE device_commands ADD COLUMN last_sent_at timestamptz;
ALTER TABLE device_commands ADD COLUMN republish_count integer NOT NULL DEFAULT 0;
