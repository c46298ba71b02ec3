-- The device channel's first tables: single-use enrolment tokens and enrolled devices with their own
-- broker credentials and offline-code secret.
CREATE TABLE enrolment_tokens (
  token_hash   text PRIMARY KEY,
  customer_id  integer NOT NULL REFERENCES customers(id),
  account_id   integer NOT NULL REFERENCES users(id),
  created_by   integer NOT NULL REFERENCES users(id),
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX enrolment_tokens_customer_idx ON enrolment_tokens (customer_id, created_at DESC);

CREATE TABLE devices (
  id                 uuid PRIMARY KEY,
  customer_id        integer NOT NULL REFERENCES customers(id),
  org_id             integer NOT NULL REFERENCES organizations(id),
  account_id         integer NOT NULL REFERENCES users(id),
  -- The broker password is a random 32-byte secret, so a plain SHA-256 of it is enough to store.
  mqtt_password_hash text NOT NULL,
  offline_secret     text NOT NULL,
  imei1              text NOT NULL,
  imei2              text,
  serial_number      text,
  sims               jsonb NOT NULL DEFAULT '[]',
  active             boolean NOT NULL DEFAULT true,
  last_check_in_at   timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX devices_active_customer_idx ON devices (customer_id) WHERE active;
