-- Manual penalties (append-only, like payments) and EMI alerts waiting for the device channel.
CREATE TABLE penalty_charges (
  id             serial PRIMARY KEY,
  customer_id    integer NOT NULL REFERENCES customers(id),
  instalment_id  integer NOT NULL REFERENCES emi_instalments(id),
  account_id     integer NOT NULL REFERENCES users(id),
  amount_paise   integer NOT NULL CHECK (amount_paise > 0),
  reason         text NOT NULL,
  created_by     integer NOT NULL REFERENCES users(id),
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX penalty_charges_customer_idx ON penalty_charges (customer_id);
CREATE TRIGGER penalty_charges_append_only BEFORE UPDATE OR DELETE ON penalty_charges FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();

CREATE TABLE emi_alerts (
  id            serial PRIMARY KEY,
  customer_id   integer NOT NULL REFERENCES customers(id),
  account_id    integer NOT NULL REFERENCES users(id),
  message       text NOT NULL,
  amount_paise  integer NOT NULL CHECK (amount_paise >= 0),
  -- queued until the device channel delivers it (then sent, delivered, done or failed).
  status        text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'delivered', 'done', 'failed', 'expired')),
  created_by    integer NOT NULL REFERENCES users(id),
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX emi_alerts_customer_idx ON emi_alerts (customer_id, created_at DESC);
