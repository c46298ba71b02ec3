-- The shop's UPI ID lives in one place, users.upi_id (with upi_name): the Payment QR screen, the operator's
-- `upi` command and the lock screen's payment link all read and write it. users.upi_vpa (migration 013, set only
-- by the operator) goes; where a user had only that one, it moves over. Where both were set, upi_id stays:
-- it is what the retailer uploaded and sees on Payment QR. An address the domain rule refuses (one starting
-- with '.', '_' or '-', which no UPI app issues) is not moved.
UPDATE users SET upi_id = upi_vpa
 WHERE upi_id IS NULL AND upi_vpa ~ '^[a-zA-Z0-9][a-zA-Z0-9._-]{1,255}@[a-zA-Z][a-zA-Z0-9]{1,63}$';
ALTER TABLE users DROP COLUMN upi_vpa;
-- The same rule as isValidVpa in packages/domain/src/upi.ts.
ALTER TABLE users ADD CONSTRAINT users_upi_id_check
  CHECK (upi_id IS NULL OR upi_id ~ '^[a-zA-Z0-9][a-zA-Z0-9._-]{1,255}@[a-zA-Z][a-zA-Z0-9]{1,63}$');

-- Why the retailer rejected a customer's "I paid": the phone shows it on the lock screen.
ALTER TABLE payment_claims ADD COLUMN decision_reason text CHECK (char_length(decision_reason) <= 200);

-- A held gateway order (decision 015: the amount or currency paid did not match, or the loan could not take
-- it) waits for a person. What the gateway reported is kept with it, and the reviewer either records the amount
-- received as a ledger payment (the order becomes paid) or marks the money returned (refunded). The held reason
-- stays on a resolved order as its history.
ALTER TABLE payment_orders
  ADD COLUMN received_paise integer CHECK (received_paise IS NULL OR received_paise >= 0),
  ADD COLUMN received_currency text,
  ADD COLUMN resolved_by integer REFERENCES users(id),
  ADD COLUMN resolved_at timestamptz;
ALTER TABLE payment_orders DROP CONSTRAINT payment_orders_status_check;
ALTER TABLE payment_orders ADD CONSTRAINT payment_orders_status_check
  CHECK (status IN ('pending', 'paid', 'held', 'refunded', 'expired', 'failed'));
ALTER TABLE payment_orders DROP CONSTRAINT payment_orders_check2;
ALTER TABLE payment_orders ADD CONSTRAINT payment_orders_held_reason_check
  CHECK (status NOT IN ('held', 'refunded') OR held_reason IS NOT NULL);
CREATE INDEX payment_orders_held_idx ON payment_orders (account_id, created_at DESC) WHERE status = 'held';
