-- Add-on plans sold with a phone (decision 020). The catalogue gets what a plan screen shows: the app the
-- plan installs (app_type; anti-hacking's three tiers are app types 8, 12 and 13) and its terms. The two
-- reference organisations get the add-on products and a one-year plan of each.
ALTER TABLE plans
  ADD COLUMN app_type smallint,
  ADD COLUMN terms text CHECK (char_length(terms) <= 4000);
UPDATE plans SET app_type = plan_type;
ALTER TABLE plans ALTER COLUMN app_type SET NOT NULL;

INSERT INTO products (org_id, product_type, name) VALUES
  (23, 5, 'Extended warranty'), (23, 7, 'Family care'), (23, 8, 'Anti-hacking'), (23, 12, 'Anti-hacking Pro'),
  (23, 13, 'Anti-hacking Premium'), (46, 8, 'Anti-hacking')
ON CONFLICT (org_id, product_type) DO NOTHING;

INSERT INTO plans (org_id, product_id, name, plan_type, app_type, validity_days, price_paise, terms)
SELECT p.org_id, p.id, v.name, p.product_type, p.product_type, v.days, v.price, v.terms
  FROM products p JOIN (VALUES
    (5, 'Extended warranty - 1 year', 365, 99900, 'Repairs of manufacturing defects for one year after the brand warranty ends.'),
    (7, 'Family care - 1 year', 365, 49900, 'Screen time, bedtime and app rules for a child''s phone, set by the parent.'),
    (8, 'Anti-hacking - 1 year', 365, 29900, 'Blocks apps that read messages, record the screen or take over the phone; alerts on risky settings.'),
    (12, 'Anti-hacking Pro - 1 year', 365, 49900, 'Anti-hacking, with safe browsing and a check of every new app.'),
    (13, 'Anti-hacking Premium - 2 years', 730, 79900, 'Anti-hacking Pro for two years, with a check of payment apps before each payment.')
  ) AS v(product_type, name, days, price, terms) ON v.product_type = p.product_type
 WHERE NOT EXISTS (SELECT 1 FROM plans x WHERE x.product_id = p.id);

-- An anti-hacking plan sold: the buyer, the plan as sold, and the activation code. The code is bound to the
-- mobile it was sold to and is activated once, by the security app on the buyer's phone. Its state follows from
-- the times: revoked, else expired (past expires_at), else activated, else issued.
CREATE TABLE antihacking_sales (
  id               bigserial PRIMARY KEY,
  org_id           integer NOT NULL REFERENCES organizations(id),
  account_id       integer NOT NULL REFERENCES users(id),
  -- Who sold it (the retailer or one of its mini-retailers); its key was used.
  retailer_id      integer NOT NULL REFERENCES users(id),
  plan_id          integer NOT NULL REFERENCES plans(id),
  product_type     integer NOT NULL,
  app_type         smallint NOT NULL,
  plan_name        text NOT NULL,
  price_paise      integer CHECK (price_paise IS NULL OR price_paise >= 0),
  first_name       text NOT NULL CHECK (char_length(first_name) BETWEEN 1 AND 100),
  last_name        text NOT NULL CHECK (char_length(last_name) BETWEEN 1 AND 100),
  email            text CHECK (char_length(email) <= 254),
  mobile           text NOT NULL CHECK (mobile ~ '^\+91[6-9][0-9]{9}$'),
  -- 15 random digits and a Verhoeff check digit (packages/domain/src/activation-code.ts).
  code             text NOT NULL UNIQUE CHECK (code ~ '^[1-9][0-9]{15}$'),
  issued_at        timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  activated_at     timestamptz,
  -- The security app's installation that activated it, and the phone's model as it reported it.
  install_id       text CHECK (char_length(install_id) <= 100),
  device_model     text CHECK (char_length(device_model) <= 100),
  revoked_at       timestamptz,
  revoked_by       integer REFERENCES users(id),
  revoke_reason    text CHECK (char_length(revoke_reason) <= 200),
  CHECK ((activated_at IS NULL) = (install_id IS NULL)),
  CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
);
CREATE INDEX antihacking_sales_account_idx ON antihacking_sales (account_id, id DESC);
CREATE INDEX antihacking_sales_retailer_idx ON antihacking_sales (retailer_id, id DESC);

-- Activations refused for a wrong code or mobile, by address: a guesser is stopped after a few (RATE_LIMITED).
CREATE TABLE antihacking_activation_failures (
  ip  text NOT NULL,
  at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX antihacking_activation_failures_idx ON antihacking_activation_failures (ip, at);

-- The key a sale used, in the seller's key history; given back if the sale is revoked before activation.
ALTER TABLE license_ledger ADD COLUMN antihacking_sale_id bigint REFERENCES antihacking_sales(id);
CREATE UNIQUE INDEX license_ledger_antihacking_sale_idx ON license_ledger (antihacking_sale_id, reason) WHERE antihacking_sale_id IS NOT NULL;
