-- What a retailer sells and finances: products (license-key types), plans, brands, financiers,
-- places; and each retailer's balance of license keys with its append-only history.
CREATE TABLE products (
  id            serial PRIMARY KEY,
  org_id        integer NOT NULL REFERENCES organizations(id),
  product_type  integer NOT NULL,
  name          text NOT NULL,
  active        boolean NOT NULL DEFAULT true,
  UNIQUE (org_id, product_type)
);

CREATE TABLE plans (
  id             serial PRIMARY KEY,
  org_id         integer NOT NULL REFERENCES organizations(id),
  product_id     integer NOT NULL REFERENCES products(id),
  name           text NOT NULL,
  plan_type      integer NOT NULL,
  validity_days  integer,
  price_paise    integer CHECK (price_paise IS NULL OR price_paise >= 0),
  active         boolean NOT NULL DEFAULT true
);
CREATE INDEX plans_product_idx ON plans (product_id);

CREATE TABLE brands (
  id    serial PRIMARY KEY,
  name  text NOT NULL UNIQUE
);

CREATE TABLE financiers (
  id               serial PRIMARY KEY,
  org_id           integer NOT NULL REFERENCES organizations(id),
  code             text NOT NULL,
  name             text NOT NULL,
  -- Fields the financier requires on its own enrolment flow (create-customer-hdb), e.g. its loan reference.
  required_fields  jsonb NOT NULL DEFAULT '[]',
  UNIQUE (org_id, code)
);

CREATE TABLE countries (
  id    serial PRIMARY KEY,
  code  text NOT NULL UNIQUE,
  name  text NOT NULL
);
CREATE TABLE states (
  id          serial PRIMARY KEY,
  country_id  integer NOT NULL REFERENCES countries(id),
  code        text NOT NULL,
  name        text NOT NULL,
  UNIQUE (country_id, code)
);
CREATE TABLE cities (
  id        serial PRIMARY KEY,
  state_id  integer NOT NULL REFERENCES states(id),
  name      text NOT NULL,
  UNIQUE (state_id, name)
);

-- Keys a retailer holds per product type. The CHECK makes an overdraw impossible even under races.
CREATE TABLE license_balances (
  user_id       integer NOT NULL REFERENCES users(id),
  product_type  integer NOT NULL,
  balance       integer NOT NULL DEFAULT 0 CHECK (balance >= 0),
  PRIMARY KEY (user_id, product_type)
);

CREATE TABLE license_ledger (
  id            bigserial PRIMARY KEY,
  user_id       integer NOT NULL REFERENCES users(id),
  product_type  integer NOT NULL,
  change        integer NOT NULL CHECK (change <> 0),
  reason        text NOT NULL,
  customer_id   integer,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX license_ledger_user_idx ON license_ledger (user_id, created_at);
