-- Android Management API: the enterprise each organisation binds through Google's sign-up flow.
CREATE TABLE amapi_enterprises (
  org_id           integer PRIMARY KEY REFERENCES organizations(id),
  enterprise_name  text NOT NULL,
  created_by       integer NOT NULL REFERENCES users(id),
  created_at       timestamptz NOT NULL DEFAULT now()
);

-- A sign-up in progress: the state parameter of the callback URL (stored as SHA-256), single-use, so only the
-- retailer who started it can bind an enterprise to the organisation.
CREATE TABLE amapi_signups (
  state_hash        text PRIMARY KEY,
  org_id            integer NOT NULL REFERENCES organizations(id),
  created_by        integer NOT NULL REFERENCES users(id),
  signup_url_name   text,
  expires_at        timestamptz NOT NULL,
  used_at           timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now()
);
