-- One-time passwords, sign-in sessions, the development SMS outbox and the anti-replay log.
CREATE TABLE otp_requests (
  id             uuid PRIMARY KEY,
  purpose        text NOT NULL CHECK (purpose IN ('LOGIN', 'FORGOT_PASSWORD', 'UNINSTALL', 'BYPASS_CODE')),
  mobile         text NOT NULL,
  -- Null when the number has no account: the request looks the same but can never succeed.
  user_id        integer REFERENCES users(id),
  -- Who asked for a customer OTP (UNINSTALL, BYPASS_CODE): only that user may check it.
  requested_by   integer REFERENCES users(id),
  code_hash      text NOT NULL,
  attempts       integer NOT NULL DEFAULT 0,
  resends        integer NOT NULL DEFAULT 0,
  ip             text,
  expires_at     timestamptz NOT NULL,
  last_sent_at   timestamptz NOT NULL DEFAULT now(),
  consumed_at    timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX otp_requests_mobile_idx ON otp_requests (mobile, created_at);
CREATE INDEX otp_requests_ip_idx ON otp_requests (ip, created_at);

-- Every SMS sent (or attempted) counts against the per-number and per-IP limits.
CREATE TABLE otp_sends (
  id          bigserial PRIMARY KEY,
  request_id  uuid NOT NULL REFERENCES otp_requests(id) ON DELETE CASCADE,
  mobile      text NOT NULL,
  ip          text,
  sent_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX otp_sends_mobile_idx ON otp_sends (mobile, sent_at);
CREATE INDEX otp_sends_ip_idx ON otp_sends (ip, sent_at);

CREATE TABLE sessions (
  id               uuid PRIMARY KEY,
  user_id          integer NOT NULL REFERENCES users(id),
  created_at       timestamptz NOT NULL DEFAULT now(),
  last_seen_at     timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  ended_at         timestamptz,
  end_reason       text,
  ip               text,
  auth_platform    text,
  device_details   text,
  browser_name     text,
  browser_version  text,
  device_type      text,
  device_platform  text
);
CREATE INDEX sessions_user_idx ON sessions (user_id) WHERE ended_at IS NULL;

CREATE TABLE sms_outbox (
  id          serial PRIMARY KEY,
  recipient   text NOT NULL,
  body        text NOT NULL,
  purpose     text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sms_outbox_recipient_idx ON sms_outbox (recipient, id);

CREATE TABLE emm_auth_seen (
  value    text PRIMARY KEY,
  seen_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX emm_auth_seen_at_idx ON emm_auth_seen (seen_at);
