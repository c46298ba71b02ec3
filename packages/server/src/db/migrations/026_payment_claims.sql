-- A customer's "I paid" from the lock screen, for a payment to the retailer's own UPI ID: such a payment sends
-- nothing back, so the claim waits for the retailer, who confirms it (the ledger payment is written in the same
-- transaction and named here) or rejects it. Decided claims stay as the record of what the customer said.
CREATE TABLE payment_claims (
  id            serial PRIMARY KEY,
  customer_id   integer NOT NULL REFERENCES customers(id),
  account_id    integer NOT NULL REFERENCES users(id),
  -- The phone that pressed "I paid" (a phone enrolled again later does not rewrite the record).
  device_id     uuid NOT NULL REFERENCES devices(id),
  -- What the customer says was paid; on confirmation, what was recorded (the retailer may correct it).
  amount_paise  integer CHECK (amount_paise > 0),
  reference     text,
  status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'confirmed', 'rejected')),
  -- Presses of "I paid" folded into this claim, and when it last changed (the phone's rate limit reads it).
  presses       integer NOT NULL DEFAULT 1,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  created_at    timestamptz NOT NULL DEFAULT now(),
  decided_at    timestamptz,
  decided_by    integer REFERENCES users(id),
  payment_id    integer UNIQUE REFERENCES payments(id),
  CHECK ((status = 'open') = (decided_at IS NULL)),
  CHECK ((status = 'confirmed') = (payment_id IS NOT NULL))
);
-- One open claim per customer: a second press updates it instead of queueing another for the retailer.
CREATE UNIQUE INDEX payment_claims_open_idx ON payment_claims (customer_id) WHERE status = 'open';
CREATE INDEX payment_claims_account_idx ON payment_claims (account_id, created_at DESC, id DESC);
CREATE INDEX payment_claims_customer_idx ON payment_claims (customer_id, created_at DESC);
