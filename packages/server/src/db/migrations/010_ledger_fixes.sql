-- After review: reopening completed loans, automatic penalties in the penalty ledger, receipts that keep
-- the outstanding of their moment, idempotent payments, bounds on penalty rules, surname search.
ALTER TABLE customers ADD COLUMN completed_from smallint;
ALTER TABLE payments ADD COLUMN outstanding_after_paise bigint;
ALTER TABLE payments ADD COLUMN idempotency_key text;
CREATE UNIQUE INDEX payments_idempotency_idx ON payments (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
ALTER TABLE penalty_charges ALTER COLUMN created_by DROP NOT NULL;
ALTER TABLE penalty_charges ADD COLUMN source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'dues_run'));
ALTER TABLE organizations ADD CONSTRAINT organizations_penalty_bounds CHECK ((penalty_kind <> 'flat' OR penalty_value <= 10000000) AND (penalty_kind <> 'percent' OR penalty_value <= 10000));
CREATE INDEX customers_account_last_name_idx ON customers (account_id, lower(last_name) text_pattern_ops);
