-- The daily dues run: each organisation's penalty rule, a claim per organisation and day so the run
-- happens once whatever the number of API nodes, and the customer events it emits for the device side.
ALTER TABLE organizations ADD COLUMN penalty_grace_days integer NOT NULL DEFAULT 3 CHECK (penalty_grace_days BETWEEN 0 AND 60);
ALTER TABLE organizations ADD COLUMN penalty_kind text NOT NULL DEFAULT 'none' CHECK (penalty_kind IN ('none', 'flat', 'percent'));
-- Paise for a flat penalty, basis points of the instalment for a percentage.
ALTER TABLE organizations ADD COLUMN penalty_value integer NOT NULL DEFAULT 0 CHECK (penalty_value >= 0);
ALTER TABLE organizations ADD COLUMN maturing_days integer NOT NULL DEFAULT 30 CHECK (maturing_days BETWEEN 1 AND 365);
ALTER TABLE organizations ADD COLUMN reminder_days integer NOT NULL DEFAULT 3 CHECK (reminder_days BETWEEN 0 AND 30);

ALTER TABLE emi_instalments ADD COLUMN penalty_applied_at timestamptz;

CREATE TABLE dues_runs (
  org_id       integer NOT NULL REFERENCES organizations(id),
  run_date     date NOT NULL,
  finished_at  timestamptz NOT NULL DEFAULT now(),
  stats        jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (org_id, run_date)
);

CREATE TABLE customer_events (
  id             serial PRIMARY KEY,
  org_id         integer NOT NULL REFERENCES organizations(id),
  account_id     integer NOT NULL REFERENCES users(id),
  customer_id    integer NOT NULL REFERENCES customers(id),
  type           text NOT NULL CHECK (type IN ('emi_reminder', 'emi_overdue', 'loan_completed', 'loan_maturing')),
  event_date     date NOT NULL,
  payload        jsonb NOT NULL DEFAULT '{}',
  handled_at     timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (customer_id, type, event_date)
);
CREATE INDEX customer_events_open_idx ON customer_events (org_id, created_at) WHERE handled_at IS NULL;

UPDATE organizations SET penalty_kind = 'flat', penalty_value = 5000 WHERE id = 23;
