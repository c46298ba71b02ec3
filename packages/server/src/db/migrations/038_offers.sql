-- Offers to customers' phones and announcements to retailers (issue 14, decision 029).

-- What the phone says: whether its customer switched the shop's offers off, and its push token. Kept on the
-- device row the check-in already reads, so an unchanged check-in writes nothing more.
ALTER TABLE devices
  ADD COLUMN offers_opt_out boolean NOT NULL DEFAULT false,
  ADD COLUMN push_token text CHECK (push_token IS NULL OR length(push_token) BETWEEN 1 AND 4096);

-- Per phone caps on offers, per organisation (India days; a week is the day and the six before it).
ALTER TABLE organizations
  ADD COLUMN offers_per_day integer NOT NULL DEFAULT 1 CHECK (offers_per_day BETWEEN 0 AND 10),
  ADD COLUMN offers_per_week integer NOT NULL DEFAULT 3 CHECK (offers_per_week BETWEEN 0 AND 50);

-- An uploaded picture, shrunk to at most 1200 x 1200 and encoded again as it came (JPEG or PNG).
CREATE TABLE ad_creatives (
  id            uuid PRIMARY KEY,
  org_id        integer NOT NULL REFERENCES organizations(id),
  account_id    integer NOT NULL REFERENCES users(id),
  created_by    integer NOT NULL REFERENCES users(id),
  path          text NOT NULL,
  content_type  text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
  width         integer NOT NULL,
  height        integer NOT NULL,
  bytes         integer NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ad_campaigns (
  id               serial PRIMARY KEY,
  org_id           integer NOT NULL REFERENCES organizations(id),
  account_id       integer NOT NULL REFERENCES users(id),
  created_by       integer NOT NULL REFERENCES users(id),
  title            text NOT NULL CHECK (length(title) BETWEEN 1 AND 65),
  text             text NOT NULL CHECK (length(text) BETWEEN 1 AND 240),
  link             text,
  creative_id      uuid REFERENCES ad_creatives(id),
  audience         jsonb NOT NULL,
  send_at          timestamptz NOT NULL,
  -- scheduled: before send_at; waiting: due, outside the sending hours; sending; sent: every phone decided.
  status           text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'waiting', 'sending', 'sent', 'cancelled')),
  idempotency_key  text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  started_at       timestamptz,
  finished_at      timestamptz
);
CREATE UNIQUE INDEX ad_campaigns_idempotency_idx ON ad_campaigns (created_by, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX ad_campaigns_list_idx ON ad_campaigns (account_id, created_at DESC, id DESC);
CREATE INDEX ad_campaigns_due_idx ON ad_campaigns (send_at) WHERE status IN ('scheduled', 'waiting', 'sending');

-- One row per phone a campaign is for: a campaign reaches a phone once. pending until the sender decides;
-- then skipped (with the reason) or sent (its offer command, whose state tells delivered, opened, failed).
CREATE TABLE ad_targets (
  campaign_id  integer NOT NULL REFERENCES ad_campaigns(id),
  customer_id  integer NOT NULL REFERENCES customers(id),
  state        text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'skipped', 'sent')),
  reason       text CHECK (reason IS NULL OR reason IN ('locked', 'opted_out', 'daily_cap', 'weekly_cap', 'no_phone')),
  command_id   uuid,
  sent_at      timestamptz,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (campaign_id, customer_id)
);
CREATE INDEX ad_targets_pending_idx ON ad_targets (campaign_id, customer_id) WHERE state = 'pending';
-- The caps count a customer's offers sent in the last days.
CREATE INDEX ad_targets_sent_idx ON ad_targets (customer_id, sent_at) WHERE sent_at IS NOT NULL;

-- The operator's announcements to retailers (every organisation when org_id is NULL), each shown once.
CREATE TABLE announcements (
  id          serial PRIMARY KEY,
  org_id      integer REFERENCES organizations(id),
  title       text NOT NULL CHECK (length(title) BETWEEN 1 AND 80),
  text        text NOT NULL CHECK (length(text) BETWEEN 1 AND 500),
  link        text,
  active      boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE announcement_dismissals (
  announcement_id  integer NOT NULL REFERENCES announcements(id),
  user_id          integer NOT NULL REFERENCES users(id),
  dismissed_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (announcement_id, user_id)
);

-- Push tokens of the console's native shell, per signed-in member, so a notification reaches the retailer's phone
-- while the console is closed. A token belongs to the member who last registered it on that phone. pushed_up_to:
-- the member's newest notification already pushed to it.
CREATE TABLE user_push_tokens (
  token         text PRIMARY KEY CHECK (length(token) BETWEEN 1 AND 4096),
  user_id       integer NOT NULL REFERENCES users(id),
  language      text NOT NULL DEFAULT 'en',
  pushed_up_to  bigint NOT NULL DEFAULT 0,
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_push_tokens_user_idx ON user_push_tokens (user_id);
