-- The ledger explains every rupee (issue 15, decision 028): each payment's share of an instalment is split into
-- penalty, interest, GST and principal by the loan product's rule; each instalment keeps what has been paid of
-- each part; penalties can be waived with a reason; every change to a schedule is kept (who, when, before,
-- after, why).

-- A payment's (or, negated, a reversal's) parts. Rows written before this migration have none (NULL): what
-- they paid of each part was never recorded, and the ledger is not rewritten to guess it.
ALTER TABLE payment_allocations
  ADD COLUMN penalty_paise bigint,
  ADD COLUMN interest_paise bigint,
  ADD COLUMN tax_paise bigint,
  ADD COLUMN principal_paise bigint;
ALTER TABLE payment_allocations ADD CONSTRAINT payment_allocations_parts_check CHECK (
  (penalty_paise IS NULL AND interest_paise IS NULL AND tax_paise IS NULL AND principal_paise IS NULL)
  OR (penalty_paise IS NOT NULL AND interest_paise IS NOT NULL AND tax_paise IS NOT NULL AND principal_paise IS NOT NULL
      AND penalty_paise + interest_paise + tax_paise + principal_paise = amount_paise));

-- What has been paid of each part of an instalment; together they are paid_paise. A payment writes its parts
-- with its total. When an instalment's paid parts no longer add up to what is paid, or one is more than its part
-- (an edited amount, a foreclosure's rewrite, older payments, a writer that sets paid_paise alone), the paid total
-- is spread in the standard order: penalty, interest, GST, principal. The WHEN clause keeps the function off
-- every other update (the dues run's penalties).
ALTER TABLE emi_instalments
  ADD COLUMN paid_penalty_paise bigint NOT NULL DEFAULT 0,
  ADD COLUMN paid_interest_paise bigint NOT NULL DEFAULT 0,
  ADD COLUMN paid_tax_paise bigint NOT NULL DEFAULT 0,
  ADD COLUMN paid_principal_paise bigint NOT NULL DEFAULT 0;
CREATE FUNCTION spread_paid_parts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.paid_penalty_paise := least(NEW.paid_paise, NEW.penalty_paise);
  NEW.paid_interest_paise := least(greatest(NEW.paid_paise - NEW.penalty_paise, 0), NEW.interest_paise);
  NEW.paid_tax_paise := least(greatest(NEW.paid_paise - NEW.penalty_paise - NEW.interest_paise, 0), NEW.tax_paise);
  NEW.paid_principal_paise := greatest(NEW.paid_paise - NEW.penalty_paise - NEW.interest_paise - NEW.tax_paise, 0);
  RETURN NEW;
END $$;
CREATE TRIGGER emi_instalments_spread_paid BEFORE INSERT OR UPDATE ON emi_instalments FOR EACH ROW
  WHEN (NEW.paid_penalty_paise + NEW.paid_interest_paise + NEW.paid_tax_paise + NEW.paid_principal_paise <> NEW.paid_paise
        OR NEW.paid_penalty_paise > NEW.penalty_paise OR NEW.paid_interest_paise > NEW.interest_paise
        OR NEW.paid_tax_paise > NEW.tax_paise OR NEW.paid_principal_paise > NEW.principal_paise)
  EXECUTE FUNCTION spread_paid_parts();
UPDATE emi_instalments SET paid_paise = paid_paise WHERE paid_paise > 0;
ALTER TABLE emi_instalments ADD CONSTRAINT emi_instalments_paid_parts_check CHECK (
  paid_penalty_paise >= 0 AND paid_interest_paise >= 0 AND paid_tax_paise >= 0 AND paid_principal_paise >= 0
  AND paid_penalty_paise + paid_interest_paise + paid_tax_paise + paid_principal_paise = paid_paise);

-- A waiver takes part or all of an unpaid penalty off an instalment (RBI's 2023 rules on penal charges). The
-- charge stays in penalty_charges; the instalment's penalty_paise is what is charged net of waivers.
CREATE TABLE penalty_waivers (
  id             serial PRIMARY KEY,
  customer_id    integer NOT NULL REFERENCES customers(id),
  instalment_id  integer NOT NULL REFERENCES emi_instalments(id),
  account_id     integer NOT NULL REFERENCES users(id),
  amount_paise   bigint NOT NULL CHECK (amount_paise > 0),
  reason         text NOT NULL CHECK (length(reason) BETWEEN 1 AND 200),
  created_by     integer NOT NULL REFERENCES users(id),
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX penalty_waivers_customer_idx ON penalty_waivers (customer_id);
CREATE TRIGGER penalty_waivers_append_only BEFORE UPDATE OR DELETE ON penalty_waivers FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();

-- Every change to a schedule after it was made: an edited amount or date, an added instalment, a waiver, and a
-- foreclosure's rewrite of the periods not yet due. Rows are never updated; they go only with an enrolment that
-- never started (cancelled), along with its schedule.
CREATE TABLE instalment_changes (
  id             serial PRIMARY KEY,
  customer_id    integer NOT NULL REFERENCES customers(id),
  instalment_id  integer NOT NULL REFERENCES emi_instalments(id),
  account_id     integer NOT NULL REFERENCES users(id),
  kind           text NOT NULL CHECK (kind IN ('edit', 'add', 'waiver', 'foreclosure')),
  -- due_date, amount_paise and penalty_paise before (NULL for an added instalment) and after.
  before         jsonb,
  after          jsonb NOT NULL,
  reason         text CHECK (reason IS NULL OR length(reason) BETWEEN 1 AND 200),
  created_by     integer NOT NULL REFERENCES users(id),
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX instalment_changes_customer_idx ON instalment_changes (customer_id, id);
CREATE FUNCTION refuse_change_edit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'schedule changes are append-only'; END $$;
CREATE TRIGGER instalment_changes_append_only BEFORE UPDATE ON instalment_changes FOR EACH ROW EXECUTE FUNCTION refuse_change_edit();
