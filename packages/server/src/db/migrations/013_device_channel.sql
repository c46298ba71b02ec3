-- The device channel, version 1: every command type, where a command came from, what phones report,
-- offline codes and log, SIM changes, schedules, bulk batches and the organisation's device policies.
ALTER TABLE device_commands ADD COLUMN origin text NOT NULL DEFAULT 'retailer'
  CHECK (origin IN ('retailer', 'schedule', 'bulk', 'dues', 'sim_change', 'system'));
ALTER TABLE device_commands ADD COLUMN batch_id uuid;
CREATE INDEX device_commands_open_idx ON device_commands (created_at) WHERE state IN ('queued', 'sent', 'delivered');
CREATE INDEX device_commands_batch_idx ON device_commands (batch_id) WHERE batch_id IS NOT NULL;
CREATE INDEX device_commands_device_idx ON device_commands (device_id, seq);

-- What the phone last reported (lock state, toggles, battery, SIMs, location, app version).
ALTER TABLE devices ADD COLUMN reported jsonb NOT NULL DEFAULT '{}';
-- Highest event and offline-log numbers taken from the phone: anything at or below is a replay.
ALTER TABLE devices ADD COLUMN last_event_n bigint NOT NULL DEFAULT 0;
ALTER TABLE devices ADD COLUMN last_log_n bigint NOT NULL DEFAULT 0;
-- Offline codes issued per purpose (HOTP counters).
ALTER TABLE devices ADD COLUMN code_counters jsonb NOT NULL DEFAULT '{"unlock": 0, "lock": 0, "bypass": 0}';
ALTER TABLE devices ADD COLUMN want_location boolean NOT NULL DEFAULT false;
ALTER TABLE devices ADD COLUMN released_at timestamptz;

CREATE TABLE device_offline_log (
  device_id    uuid NOT NULL REFERENCES devices(id),
  n            bigint NOT NULL,
  customer_id  integer NOT NULL REFERENCES customers(id),
  kind         text NOT NULL,
  ref          text,
  happened_at  timestamptz NOT NULL,
  received_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (device_id, n)
);
CREATE INDEX device_offline_log_customer_idx ON device_offline_log (customer_id, happened_at DESC);

CREATE TABLE sim_changes (
  id           serial PRIMARY KEY,
  device_id    uuid NOT NULL REFERENCES devices(id),
  customer_id  integer NOT NULL REFERENCES customers(id),
  account_id   integer NOT NULL REFERENCES users(id),
  old_sims     jsonb NOT NULL,
  new_sims     jsonb NOT NULL,
  location     jsonb,
  changed_at   timestamptz NOT NULL,
  received_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sim_changes_account_idx ON sim_changes (account_id, changed_at DESC);
CREATE INDEX sim_changes_customer_idx ON sim_changes (customer_id, changed_at DESC);

-- Lock or unlock at a set time; kept in the database so a restart loses nothing.
CREATE TABLE device_schedules (
  id           serial PRIMARY KEY,
  customer_id  integer NOT NULL REFERENCES customers(id),
  account_id   integer NOT NULL REFERENCES users(id),
  action       text NOT NULL CHECK (action IN ('lock', 'unlock')),
  run_at       timestamptz NOT NULL,
  state        text NOT NULL DEFAULT 'scheduled' CHECK (state IN ('scheduled', 'done', 'skipped', 'cancelled')),
  command_id   uuid REFERENCES device_commands(id),
  note         text,
  created_by   integer NOT NULL REFERENCES users(id),
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_schedules_due_idx ON device_schedules (run_at) WHERE state = 'scheduled';
CREATE INDEX device_schedules_customer_idx ON device_schedules (customer_id, run_at DESC);

CREATE TABLE command_batches (
  id           uuid PRIMARY KEY,
  account_id   integer NOT NULL REFERENCES users(id),
  action       text NOT NULL CHECK (action IN ('lock', 'unlock')),
  created_by   integer NOT NULL REFERENCES users(id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  -- Customers that could not be given a command, with the reason (not enrolled, not allowed, ...).
  skipped      jsonb NOT NULL DEFAULT '[]'
);

ALTER TABLE emi_alerts ADD COLUMN command_id uuid REFERENCES device_commands(id);

-- Device policies per organisation.
ALTER TABLE organizations ADD COLUMN lock_on_sim_change boolean NOT NULL DEFAULT false;
-- 0: off; otherwise lock a phone this many days after its oldest unpaid instalment fell due.
ALTER TABLE organizations ADD COLUMN auto_lock_days_overdue integer NOT NULL DEFAULT 0 CHECK (auto_lock_days_overdue BETWEEN 0 AND 365);
ALTER TABLE organizations ADD COLUMN auto_unlock_when_paid boolean NOT NULL DEFAULT false;

-- The retailer's UPI address for the lock screen's payment QR.
ALTER TABLE users ADD COLUMN upi_vpa text CHECK (upi_vpa IS NULL OR upi_vpa ~ '^[A-Za-z0-9._-]{2,64}@[A-Za-z][A-Za-z0-9]{1,31}$');

-- How commands reach the phone: the MQTT channel (our agent) or Apple's MDM (through the Apple provider).
ALTER TABLE devices ADD COLUMN channel text NOT NULL DEFAULT 'mqtt' CHECK (channel IN ('mqtt', 'apple'));
ALTER TABLE devices ADD COLUMN apple_udid text;

-- The customer's language for what the phone shows (null: the phone's own language).
ALTER TABLE customers ADD COLUMN language text CHECK (language IS NULL OR language IN ('en', 'hn', 'mr', 'gj', 'sp', 'bd', 'kn', 'tg', 'tm', 'pp'));
