-- Organisations (white-label tenants), retailers and their access switches.
CREATE TABLE organizations (
  id                   integer PRIMARY KEY,
  name                 text NOT NULL,
  short_name           text NOT NULL,
  company_name         text NOT NULL,
  parent_company_name  text NOT NULL,
  ai_assistant_name    text NOT NULL,
  features             jsonb NOT NULL DEFAULT '{"witness_signature": false, "payment_gateway": false, "outstanding_amount": false}',
  support_phone        text,
  support_email        text,
  support_whatsapp     text,
  support_hours        text,
  offline_lock_days    integer NOT NULL DEFAULT 7 CHECK (offline_lock_days BETWEEN 1 AND 365),
  created_at           timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id                 serial PRIMARY KEY,
  org_id             integer NOT NULL REFERENCES organizations(id),
  -- The retailer account at the top of this user's network; a retailer is its own account.
  account_id         integer REFERENCES users(id),
  parent_id          integer REFERENCES users(id),
  user_type          text NOT NULL CHECK (user_type IN ('retailer', 'miniretailer')),
  first_name         text NOT NULL,
  last_name          text NOT NULL,
  mobile             text NOT NULL UNIQUE CHECK (mobile ~ '^\+91[6-9][0-9]{9}$'),
  email              text,
  shop_name          text,
  city               text,
  birthday           date,
  active             boolean NOT NULL DEFAULT true,
  mpin_hash          text,
  mpin_failed        integer NOT NULL DEFAULT 0,
  user_access        jsonb NOT NULL DEFAULT '{"feature_access": "1", "lock_unlock": "1", "unistall": "1", "active_deactive": "1", "bulk_retailer": "0"}',
  lock_access        jsonb NOT NULL DEFAULT '{"lock": "1", "unlock": "1", "read": "1", "uninstall": "1"}',
  created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_account_idx ON users (account_id);
CREATE INDEX users_org_idx ON users (org_id);

CREATE TABLE signup_requests (
  id           serial PRIMARY KEY,
  org_id       integer NOT NULL REFERENCES organizations(id),
  first_name   text NOT NULL,
  last_name    text NOT NULL,
  mobile       text NOT NULL,
  shop_name    text NOT NULL,
  city         text NOT NULL,
  email        text,
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  ip           text,
  user_id      integer REFERENCES users(id),
  decided_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
-- One open request per number.
CREATE UNIQUE INDEX signup_requests_pending_mobile ON signup_requests (mobile) WHERE status = 'pending';

-- The public price list; a null price means "ask the admin".
CREATE TABLE price_list (
  id             serial PRIMARY KEY,
  org_id         integer NOT NULL REFERENCES organizations(id),
  product_type   integer NOT NULL,
  name           text NOT NULL,
  validity_days  integer,
  price_paise    integer CHECK (price_paise IS NULL OR price_paise >= 0),
  sort_order     integer NOT NULL DEFAULT 0
);
CREATE INDEX price_list_org_idx ON price_list (org_id, sort_order);
