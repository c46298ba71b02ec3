-- Apple: phones managed through Apple's MDM protocol, and the devices Apple Business Manager (DEP) assigns to us.

-- One row per Apple phone enrolled through our MDM profile: how it proves itself on the MDM endpoints (a
-- random key in its ServerURL and CheckInURL, stored as SHA-256) and how we wake it (APNs token and PushMagic).
CREATE TABLE apple_mdm_enrolments (
  device_id          uuid PRIMARY KEY REFERENCES devices(id),
  key_hash           text NOT NULL,
  udid               text,
  serial_number      text,
  topic              text,
  -- APNs device token, hex.
  push_token         text,
  push_magic         text,
  -- From TokenUpdate, base64: lets ClearPasscode lift a passcode.
  unlock_token       text,
  -- The Activation Lock bypass code the phone reported (ActivationLockBypassCode).
  bypass_code        text,
  model              text,
  os_version         text,
  authenticated_at   timestamptz,
  token_updated_at   timestamptz,
  last_seen_at       timestamptz,
  last_status        text,
  checked_out_at     timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX apple_mdm_enrolments_udid_idx ON apple_mdm_enrolments (udid) WHERE udid IS NOT NULL AND checked_out_at IS NULL;

-- MDM commands of our own (not retailer commands): asked of the phone by the provider, e.g. the bypass code.
CREATE TABLE apple_mdm_commands (
  id            uuid PRIMARY KEY,
  device_id     uuid NOT NULL REFERENCES devices(id),
  request_type  text NOT NULL,
  body          text NOT NULL,
  state         text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'acknowledged', 'error')),
  result        jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  answered_at   timestamptz
);
CREATE INDEX apple_mdm_commands_open_idx ON apple_mdm_commands (device_id, created_at) WHERE state IN ('queued', 'sent');

-- Devices Apple Business Manager has assigned to our MDM server, as the last sync saw them; a retailer network
-- links one to its customer with "update".
CREATE TABLE apple_devices (
  serial_number        text PRIMARY KEY,
  model                text,
  description          text,
  color                text,
  asset_tag            text,
  os                   text,
  device_family        text,
  profile_status       text,
  profile_uuid         text,
  profile_assign_time  timestamptz,
  device_assigned_date timestamptz,
  device_assigned_by   text,
  op_type              text,
  op_date              timestamptz,
  account_id           integer REFERENCES users(id),
  customer_id          integer REFERENCES customers(id),
  linked_by            integer REFERENCES users(id),
  linked_at            timestamptz,
  synced_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX apple_devices_account_idx ON apple_devices (account_id);
CREATE UNIQUE INDEX apple_devices_customer_idx ON apple_devices (customer_id) WHERE customer_id IS NOT NULL;

-- The DEP sync cursor (one ABM server token per deployment).
CREATE TABLE apple_dep_state (
  id             integer PRIMARY KEY CHECK (id = 1),
  cursor         text,
  fetched_until  timestamptz,
  synced_at      timestamptz NOT NULL DEFAULT now()
);
