-- Extended warranty plans sold with a phone (decision 021). A plan of product type 5 carries its rules here, one
-- row per plan: either a service contract (a repair plan the shop or the brand services itself) or cover backed by
-- an insurer, named. Indian rules keep the two apart, and so do these checks: only insurance names an insurer, and
-- only insurance may cover accidental or liquid damage. Shares are basis points (10000 = the whole amount).
CREATE TABLE warranty_rules (
  plan_id                integer PRIMARY KEY REFERENCES plans(id),
  cover_kind             text NOT NULL CHECK (cover_kind IN ('service_contract', 'insurance')),
  insurer_name           text CHECK (char_length(insurer_name) BETWEEN 1 AND 120),
  -- Days after the phone's invoice date in which the plan may be sold.
  purchase_window_days   smallint NOT NULL CHECK (purchase_window_days BETWEEN 0 AND 365),
  -- Days after the sale before the cover starts.
  waiting_days           smallint NOT NULL CHECK (waiting_days BETWEEN 0 AND 365),
  -- Months from the invoice date to the end of the cover.
  term_months            smallint NOT NULL CHECK (term_months BETWEEN 1 AND 120),
  -- A manufacturing defect is covered only once the brand's own warranty (these months) is over.
  brand_warranty_months  smallint NOT NULL DEFAULT 0 CHECK (brand_warranty_months BETWEEN 0 AND 60),
  covers_defects         boolean NOT NULL,
  covers_accidental      boolean NOT NULL,
  covers_liquid          boolean NOT NULL,
  max_claims             smallint NOT NULL CHECK (max_claims BETWEEN 1 AND 20),
  -- The most one claim pays, as a share of the invoice value.
  cover_limit_bps        integer NOT NULL CHECK (cover_limit_bps BETWEEN 1 AND 10000),
  CHECK ((cover_kind = 'insurance') = (insurer_name IS NOT NULL)),
  CHECK (cover_kind = 'insurance' OR NOT (covers_accidental OR covers_liquid)),
  CHECK (covers_defects OR covers_accidental OR covers_liquid),
  CHECK (NOT covers_defects OR brand_warranty_months < term_months)
);

-- The deductible by the phone's age at the claim date, in completed months since the invoice: from_months
-- included, to_months not (null: no end). The bands of a plan follow each other from 0 (packages/domain/src/warranty.ts).
CREATE TABLE warranty_deductible_bands (
  plan_id      integer NOT NULL REFERENCES warranty_rules(plan_id) ON DELETE CASCADE,
  from_months  smallint NOT NULL CHECK (from_months BETWEEN 0 AND 1200),
  to_months    smallint CHECK (to_months > from_months AND to_months <= 1200),
  bps          integer NOT NULL CHECK (bps BETWEEN 0 AND 10000),
  PRIMARY KEY (plan_id, from_months)
);

-- A plan sold for one phone: the buyer, the phone and its invoice, the plan and its rules as sold, the certificate
-- and the days it covers (from the sale date plus the waiting period to the day before the invoice date plus the
-- term). A financed customer of the seller's network may be linked.
CREATE TABLE warranty_sales (
  id                   bigserial PRIMARY KEY,
  org_id               integer NOT NULL REFERENCES organizations(id),
  account_id           integer NOT NULL REFERENCES users(id),
  -- Who sold it (the retailer or one of its mini-retailers); its key was used.
  retailer_id          integer NOT NULL REFERENCES users(id),
  plan_id              integer NOT NULL REFERENCES plans(id),
  product_type         integer NOT NULL,
  plan_name            text NOT NULL,
  price_paise          integer CHECK (price_paise IS NULL OR price_paise >= 0),
  cover_kind           text NOT NULL CHECK (cover_kind IN ('service_contract', 'insurance')),
  insurer_name         text CHECK (char_length(insurer_name) BETWEEN 1 AND 120),
  -- Every rule of the plan as sold (WarrantyRules): a later change of the plan does not rewrite a sale.
  rules                jsonb NOT NULL,
  customer_id          integer REFERENCES customers(id) ON DELETE SET NULL,
  first_name           text NOT NULL CHECK (char_length(first_name) BETWEEN 1 AND 100),
  last_name            text NOT NULL CHECK (char_length(last_name) BETWEEN 1 AND 100),
  email                text CHECK (char_length(email) <= 254),
  mobile               text NOT NULL CHECK (mobile ~ '^\+91[6-9][0-9]{9}$'),
  imei                 text NOT NULL CHECK (imei ~ '^[0-9]{15}$'),
  brand                text NOT NULL CHECK (char_length(brand) BETWEEN 1 AND 60),
  model                text NOT NULL CHECK (char_length(model) BETWEEN 1 AND 60),
  invoice_value_paise  integer NOT NULL CHECK (invoice_value_paise BETWEEN 1 AND 100000000),
  invoice_date         date NOT NULL,
  -- The sale's date in India.
  sale_date            date NOT NULL,
  -- KW, the sale's year and eight random characters without I, O, 0 or 1 (KW-2026-7QMX-4KDP).
  certificate_no       text NOT NULL UNIQUE CHECK (certificate_no ~ '^KW-[0-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$'),
  cover_start          date NOT NULL,
  cover_end            date NOT NULL,
  sold_at              timestamptz NOT NULL DEFAULT now(),
  revoked_at           timestamptz,
  revoked_by           integer REFERENCES users(id),
  revoke_reason        text CHECK (char_length(revoke_reason) <= 200),
  CHECK ((cover_kind = 'insurance') = (insurer_name IS NOT NULL)),
  CHECK (invoice_date <= sale_date AND cover_start <= cover_end),
  CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
);
CREATE INDEX warranty_sales_account_idx ON warranty_sales (account_id, id DESC);
CREATE INDEX warranty_sales_retailer_idx ON warranty_sales (retailer_id, id DESC);
CREATE INDEX warranty_sales_customer_idx ON warranty_sales (customer_id) WHERE customer_id IS NOT NULL;
CREATE INDEX warranty_sales_imei_idx ON warranty_sales (account_id, imei);
CREATE INDEX warranty_sales_mobile_idx ON warranty_sales (account_id, mobile);

-- A claim on a sale: what happened, on which phone, and where it stands. The payout figures are set when it is
-- approved (the assessed cost, capped at the cover limit, less the deductible for the phone's age).
CREATE TABLE warranty_claims (
  id                   bigserial PRIMARY KEY,
  sale_id              bigint NOT NULL REFERENCES warranty_sales(id),
  cause                text NOT NULL CHECK (cause IN ('defect', 'accidental', 'liquid')),
  imei                 text NOT NULL CHECK (imei ~ '^[0-9]{15}$'),
  description          text NOT NULL CHECK (char_length(description) BETWEEN 1 AND 1000),
  -- The day it was raised, in India: the phone's age and the cover are taken on it.
  claim_date           date NOT NULL,
  state                text NOT NULL DEFAULT 'intimated'
                       CHECK (state IN ('intimated', 'documents', 'approved', 'rejected', 'repaired', 'replaced', 'settled')),
  reject_reason        text CHECK (char_length(reject_reason) BETWEEN 1 AND 200),
  assessed_cost_paise  integer CHECK (assessed_cost_paise >= 0),
  cover_limit_paise    integer CHECK (cover_limit_paise >= 0),
  device_age_months    smallint CHECK (device_age_months >= 0),
  deductible_bps       integer CHECK (deductible_bps BETWEEN 0 AND 10000),
  deductible_paise     integer CHECK (deductible_paise >= 0),
  payable_paise        integer CHECK (payable_paise >= 0),
  raised_by            integer NOT NULL REFERENCES users(id),
  raised_at            timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  CHECK ((state = 'rejected') = (reject_reason IS NOT NULL)),
  CHECK ((state IN ('approved', 'repaired', 'replaced', 'settled')) = (payable_paise IS NOT NULL)),
  CHECK ((payable_paise IS NULL) = (assessed_cost_paise IS NULL) AND (payable_paise IS NULL) = (deductible_paise IS NULL)
         AND (payable_paise IS NULL) = (cover_limit_paise IS NULL) AND (payable_paise IS NULL) = (deductible_bps IS NULL))
);
CREATE INDEX warranty_claims_sale_idx ON warranty_claims (sale_id, id);

-- Each state a claim entered, who moved it there and when (the first row is the claim raised).
CREATE TABLE warranty_claim_events (
  id          bigserial PRIMARY KEY,
  claim_id    bigint NOT NULL REFERENCES warranty_claims(id),
  from_state  text CHECK (from_state IN ('intimated', 'documents', 'approved')),
  to_state    text NOT NULL CHECK (to_state IN ('intimated', 'documents', 'approved', 'rejected', 'repaired', 'replaced', 'settled')),
  by_user     integer NOT NULL REFERENCES users(id),
  at          timestamptz NOT NULL DEFAULT now(),
  note        text CHECK (char_length(note) <= 200)
);
CREATE INDEX warranty_claim_events_claim_idx ON warranty_claim_events (claim_id, id);

-- Photos of a damaged phone, uploaded for a sale (sniffed and encoded again like every image, stored under a
-- generated name) and taken by the claim that names them.
CREATE TABLE warranty_photos (
  id            bigserial PRIMARY KEY,
  sale_id       bigint NOT NULL REFERENCES warranty_sales(id),
  claim_id      bigint REFERENCES warranty_claims(id),
  path          text NOT NULL,
  content_type  text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
  bytes         integer NOT NULL CHECK (bytes > 0),
  uploaded_by   integer NOT NULL REFERENCES users(id),
  uploaded_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX warranty_photos_sale_idx ON warranty_photos (sale_id, id);
CREATE INDEX warranty_photos_claim_idx ON warranty_photos (claim_id) WHERE claim_id IS NOT NULL;

-- The key a sale used, in the seller's key history; given back if the sale is revoked before any claim.
ALTER TABLE license_ledger ADD COLUMN warranty_sale_id bigint REFERENCES warranty_sales(id);
CREATE UNIQUE INDEX license_ledger_warranty_sale_idx ON license_ledger (warranty_sale_id, reason) WHERE warranty_sale_id IS NOT NULL;

-- The reference organisations: both get the extended warranty product, a repair plan (a service contract on
-- manufacturing defects for a year after the brand's) and damage protection backed by a demo insurer.
INSERT INTO products (org_id, product_type, name) VALUES (23, 5, 'Extended warranty'), (46, 5, 'Extended warranty')
ON CONFLICT (org_id, product_type) DO NOTHING;

INSERT INTO plans (org_id, product_id, name, plan_type, app_type, validity_days, price_paise, terms)
SELECT p.org_id, p.id, v.name, 5, 5, v.days, v.price, v.terms
  FROM products p CROSS JOIN (VALUES
    ('Extended warranty - 1 year', 365, 99900, 'Repairs of manufacturing defects for one year after the brand warranty ends.'),
    ('Damage protection - 1 year', 365, 149900, 'Accidental and liquid damage repaired for a year from the invoice date. Insured by Suraksha General Insurance (demo).')
  ) AS v(name, days, price, terms)
 WHERE p.org_id IN (23, 46) AND p.product_type = 5
   AND NOT EXISTS (SELECT 1 FROM plans x WHERE x.product_id = p.id AND x.name = v.name);

INSERT INTO warranty_rules (plan_id, cover_kind, insurer_name, purchase_window_days, waiting_days, term_months, brand_warranty_months,
                            covers_defects, covers_accidental, covers_liquid, max_claims, cover_limit_bps)
SELECT pl.id, v.kind, v.insurer, 15, v.waiting, v.term, 12, v.defects, v.damage, v.damage, v.claims, 10000
  FROM plans pl JOIN (VALUES
    ('Extended warranty - 1 year', 'service_contract', NULL, 0, 24, true, false, 3),
    ('Damage protection - 1 year', 'insurance', 'Suraksha General Insurance (demo)', 7, 12, false, true, 2)
  ) AS v(name, kind, insurer, waiting, term, defects, damage, claims) ON v.name = pl.name
 WHERE pl.org_id IN (23, 46) AND pl.plan_type = 5
ON CONFLICT (plan_id) DO NOTHING;

INSERT INTO warranty_deductible_bands (plan_id, from_months, to_months, bps)
SELECT r.plan_id, b.from_months, b.to_months, b.bps
  FROM warranty_rules r JOIN (VALUES
    ('service_contract', 0, 18, 0), ('service_contract', 18, NULL, 1000),
    ('insurance', 0, 6, 0), ('insurance', 6, 12, 1000), ('insurance', 12, NULL, 2000)
  ) AS b(kind, from_months, to_months, bps) ON b.kind = r.cover_kind
ON CONFLICT (plan_id, from_months) DO NOTHING;
