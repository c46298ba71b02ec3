-- Loan products (issue 15, decision 027): an organisation's named schedule conventions. A loan keeps a copy of
-- its product's settings, its exact rate and its Key Fact Statement (customers.loan_terms), so editing or
-- retiring a product never rewrites an existing schedule. GST on a no-cost loan's interest is its own part of
-- each instalment (amount = principal + interest + tax).
CREATE TABLE loan_products (
  id          serial PRIMARY KEY,
  org_id      integer NOT NULL REFERENCES organizations(id),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  settings    jsonb NOT NULL,
  active      boolean NOT NULL DEFAULT true,
  sort_order  integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, name)
);
CREATE INDEX loan_products_org_idx ON loan_products (org_id, sort_order, id) WHERE active;

ALTER TABLE customers
  ADD COLUMN loan_product_id integer REFERENCES loan_products(id),
  ADD COLUMN loan_terms jsonb;
ALTER TABLE emi_instalments ADD COLUMN tax_paise bigint NOT NULL DEFAULT 0 CHECK (tax_paise >= 0);
-- A product's instalments need not be monthly: tenure_months counts instalments (up to 520, ten years of weekly ones).
ALTER TABLE customers DROP CONSTRAINT customers_tenure_months_check;
ALTER TABLE customers ADD CONSTRAINT customers_tenure_months_check CHECK (tenure_months BETWEEN 1 AND 520);

