-- Customers (a financed phone and its buyer), their instalment schedules, and the payment ledger.
CREATE TABLE customers (
  id                      serial PRIMARY KEY,
  org_id                  integer NOT NULL REFERENCES organizations(id),
  -- The retailer network the customer belongs to: every read and write is filtered by it.
  account_id              integer NOT NULL REFERENCES users(id),
  retailer_id             integer NOT NULL REFERENCES users(id),
  first_name              text NOT NULL,
  last_name               text NOT NULL,
  mobile                  text NOT NULL CHECK (mobile ~ '^\+91[6-9][0-9]{9}$'),
  alt_mobile              text CHECK (alt_mobile IS NULL OR alt_mobile ~ '^\+91[6-9][0-9]{9}$'),
  email                   text,
  address                 text,
  state_id                integer REFERENCES states(id),
  city_id                 integer REFERENCES cities(id),
  pincode                 text CHECK (pincode IS NULL OR pincode ~ '^[1-9][0-9]{5}$'),
  date_of_birth           date,
  id_type                 text CHECK (id_type IS NULL OR id_type IN ('AADHAAR', 'PAN', 'VOTER_ID', 'DRIVING_LICENCE', 'PASSPORT')),
  -- Stored in full for the financier; every response and log shows it masked.
  id_number               text,
  photo_path              text,
  signature_path          text,
  witness_signature_path  text,
  invoice_path            text,
  device_brand            text,
  device_model            text,
  imei1                   text NOT NULL CHECK (imei1 ~ '^[0-9]{15}$'),
  imei2                   text CHECK (imei2 IS NULL OR imei2 ~ '^[0-9]{15}$'),
  serial_number           text,
  provisioning_type       smallint NOT NULL CHECK (provisioning_type BETWEEN 0 AND 3),
  product_id              integer NOT NULL REFERENCES products(id),
  plan_id                 integer REFERENCES plans(id),
  financier_id            integer REFERENCES financiers(id),
  financier_reference     jsonb NOT NULL DEFAULT '{}',
  price_paise             integer NOT NULL CHECK (price_paise > 0),
  down_payment_paise      integer NOT NULL CHECK (down_payment_paise >= 0),
  processing_fee_paise    integer NOT NULL DEFAULT 0 CHECK (processing_fee_paise >= 0),
  annual_rate_bps         integer NOT NULL CHECK (annual_rate_bps BETWEEN 0 AND 6000),
  interest_method         text NOT NULL CHECK (interest_method IN ('reducing', 'flat')),
  tenure_months           integer NOT NULL CHECK (tenure_months BETWEEN 1 AND 60),
  advance_emis            integer NOT NULL DEFAULT 0,
  start_date              date NOT NULL,
  first_due_date          date NOT NULL,
  emi_paise               integer NOT NULL,
  install_status          smallint NOT NULL DEFAULT 0 CHECK (install_status BETWEEN 0 AND 6),
  lock_status             smallint NOT NULL DEFAULT 0 CHECK (lock_status IN (0, 1)),
  -- Optional per-customer allow-list of device actions (spec section 6); null means the default rule.
  allowed_actions         text[],
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX customers_account_created_idx ON customers (account_id, created_at DESC, id DESC);
CREATE INDEX customers_account_status_idx ON customers (account_id, install_status, created_at DESC);
CREATE INDEX customers_account_lock_idx ON customers (account_id, lock_status);
CREATE INDEX customers_account_name_idx ON customers (account_id, lower(first_name || ' ' || last_name) text_pattern_ops);
CREATE INDEX customers_mobile_idx ON customers (mobile);
CREATE INDEX customers_imei1_idx ON customers (imei1);
CREATE INDEX customers_imei2_idx ON customers (imei2);

-- An IMEI may belong to one active loan at a time; completed or uninstalled loans free it.
CREATE TABLE customer_imeis (
  imei         text NOT NULL CHECK (imei ~ '^[0-9]{15}$'),
  customer_id  integer NOT NULL REFERENCES customers(id),
  active       boolean NOT NULL DEFAULT true
);
CREATE UNIQUE INDEX customer_imeis_active_idx ON customer_imeis (imei) WHERE active;
CREATE INDEX customer_imeis_customer_idx ON customer_imeis (customer_id);

CREATE TABLE emi_instalments (
  id                  serial PRIMARY KEY,
  customer_id         integer NOT NULL REFERENCES customers(id),
  account_id          integer NOT NULL REFERENCES users(id),
  number              integer NOT NULL,
  due_date            date NOT NULL,
  principal_paise     integer NOT NULL CHECK (principal_paise >= 0),
  interest_paise      integer NOT NULL CHECK (interest_paise >= 0),
  amount_paise        integer NOT NULL CHECK (amount_paise > 0),
  paid_paise          integer NOT NULL DEFAULT 0 CHECK (paid_paise >= 0),
  penalty_paise       integer NOT NULL DEFAULT 0 CHECK (penalty_paise >= 0),
  advance             boolean NOT NULL DEFAULT false,
  paid_at             timestamptz,
  UNIQUE (customer_id, number),
  CHECK (paid_paise <= amount_paise + penalty_paise)
);
CREATE INDEX emi_instalments_open_idx ON emi_instalments (account_id, due_date) WHERE paid_paise < amount_paise + penalty_paise;

-- The money ledger is append-only: a correction is a reversal row, never an edit.
CREATE TABLE payments (
  id            serial PRIMARY KEY,
  customer_id   integer NOT NULL REFERENCES customers(id),
  account_id    integer NOT NULL REFERENCES users(id),
  kind          text NOT NULL CHECK (kind IN ('payment', 'reversal')),
  amount_paise  integer NOT NULL CHECK ((kind = 'payment' AND amount_paise > 0) OR (kind = 'reversal' AND amount_paise < 0)),
  reverses_id   integer UNIQUE REFERENCES payments(id),
  method        text NOT NULL CHECK (method IN ('cash', 'upi', 'card', 'bank', 'cheque', 'other')),
  reference     text,
  receipt_no    text NOT NULL UNIQUE,
  note          text,
  created_by    integer NOT NULL REFERENCES users(id),
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payments_customer_idx ON payments (customer_id, created_at);
CREATE INDEX payments_account_idx ON payments (account_id, created_at);

CREATE TABLE payment_allocations (
  payment_id      integer NOT NULL REFERENCES payments(id),
  instalment_id   integer NOT NULL REFERENCES emi_instalments(id),
  amount_paise    integer NOT NULL CHECK (amount_paise <> 0),
  PRIMARY KEY (payment_id, instalment_id)
);

CREATE FUNCTION refuse_ledger_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the payment ledger is append-only'; END $$;
CREATE TRIGGER payments_append_only BEFORE UPDATE OR DELETE ON payments FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();
CREATE TRIGGER payment_allocations_append_only BEFORE UPDATE OR DELETE ON payment_allocations FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();
