-- Outgoing text messages. A message is written in the same transaction as the OTP it carries and sent
-- later by a worker with retries, so a request never waits for the SMS vendor (and its timing cannot
-- tell whether a message was sent). Any node may send: a claim takes rows with FOR UPDATE SKIP LOCKED.
CREATE TABLE sms_queue (
  id               bigserial PRIMARY KEY,
  recipient        text NOT NULL,
  -- Emptied once the message is sent or given up: the code in it should not outlive its delivery.
  body             text,
  purpose          text NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
  -- Attempts started so far (counted when claimed, so a node dying mid-send still uses one up).
  tries            integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  -- While sending: which claim holds the message and until when; a claim past its time is taken again.
  claim_id         uuid,
  claimed_until    timestamptz,
  -- Not worth sending after this (an OTP past its lifetime); null: no limit.
  discard_after    timestamptz,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  finished_at      timestamptz,
  CHECK ((status = 'sending') = (claim_id IS NOT NULL AND claimed_until IS NOT NULL))
);
CREATE INDEX sms_queue_due_idx ON sms_queue (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX sms_queue_claimed_idx ON sms_queue (claimed_until) WHERE status = 'sending';
CREATE INDEX sms_queue_finished_idx ON sms_queue (finished_at) WHERE status IN ('sent', 'failed');
