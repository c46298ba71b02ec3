-- Notifications for retailers (issue 14): one row per recipient, written in the transaction of what it tells of, so
-- nothing is told that did not happen and nothing that happened goes untold. A customer's notifications go to its
-- seller and every member above the seller in the network; the network's own (keys) to the member concerned.
CREATE TABLE notifications (
  id           bigserial PRIMARY KEY,
  user_id      integer NOT NULL REFERENCES users(id),
  account_id   integer NOT NULL REFERENCES users(id),
  kind         text NOT NULL CHECK (kind IN ('sim_change', 'command_failed', 'command_expired', 'payment_received', 'payment_claim', 'key_request', 'keys_received', 'keys_low', 'phone_offline', 'dues_run')),
  customer_id  integer REFERENCES customers(id),
  data         jsonb NOT NULL DEFAULT '{}',
  created_at   timestamptz NOT NULL DEFAULT now(),
  read_at      timestamptz
);
CREATE INDEX notifications_user_idx ON notifications (user_id, id DESC);
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL;

-- When a phone's silence was last told (a phone offline for days is told once per silence: a check-in after it
-- starts a new one).
ALTER TABLE devices ADD COLUMN offline_told_at timestamptz;
