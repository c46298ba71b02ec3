-- Phones on a plan alone (decision 023): an anti-theft or family-care phone sold without a loan is a customer whose
-- loan columns are all empty. A customer has the whole loan or none of it.
ALTER TABLE customers
  ALTER COLUMN price_paise DROP NOT NULL,
  ALTER COLUMN down_payment_paise DROP NOT NULL,
  ALTER COLUMN annual_rate_bps DROP NOT NULL,
  ALTER COLUMN interest_method DROP NOT NULL,
  ALTER COLUMN tenure_months DROP NOT NULL,
  ALTER COLUMN start_date DROP NOT NULL,
  ALTER COLUMN first_due_date DROP NOT NULL,
  ALTER COLUMN emi_paise DROP NOT NULL,
  ADD CONSTRAINT customers_loan_whole CHECK (
    num_nulls(price_paise, down_payment_paise, annual_rate_bps, interest_method, tenure_months, start_date, first_due_date, emi_paise) IN (0, 8));
-- The sweep that releases such phones once their plan has ended reads only them.
CREATE INDEX customers_plan_only_idx ON customers (id) WHERE price_paise IS NULL;

-- Family care (decision 024): the rules a parent asked for, as last sent to the phone. `version` rises with every
-- change; the phone keeps the highest it took. `covered_until` is the last day once renewed (before that, one term
-- from enrolment, as for anti-theft).
CREATE TABLE family_rules (
  customer_id    integer PRIMARY KEY REFERENCES customers(id),
  account_id     integer NOT NULL REFERENCES users(id),
  version        integer NOT NULL DEFAULT 0 CHECK (version >= 0),
  rules          jsonb,
  covered_until  date,
  updated_by     integer NOT NULL REFERENCES users(id),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  CHECK ((version = 0) = (rules IS NULL))
);

-- The phone's usage per India day and app, as its latest report of that day said (a later report replaces it).
CREATE TABLE family_usage (
  customer_id  integer NOT NULL REFERENCES customers(id),
  day          date NOT NULL,
  app          text NOT NULL CHECK (char_length(app) BETWEEN 1 AND 150),
  seconds      integer NOT NULL CHECK (seconds BETWEEN 0 AND 86400),
  reported_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_id, day, app)
);
