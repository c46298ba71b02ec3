-- Commands to phones: written first, published after commit, each with a per-device sequence number.
ALTER TABLE devices ADD COLUMN last_seq integer NOT NULL DEFAULT 0;

CREATE TABLE device_commands (
  id            uuid PRIMARY KEY,
  device_id     uuid NOT NULL REFERENCES devices(id),
  customer_id   integer NOT NULL REFERENCES customers(id),
  account_id    integer NOT NULL REFERENCES users(id),
  seq           integer NOT NULL,
  type          text NOT NULL,
  payload       jsonb NOT NULL DEFAULT '{}',
  state         text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'delivered', 'done', 'failed', 'expired')),
  result        jsonb,
  created_by    integer NOT NULL REFERENCES users(id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  sent_at       timestamptz,
  delivered_at  timestamptz,
  finished_at   timestamptz,
  expires_at    timestamptz NOT NULL,
  UNIQUE (device_id, seq)
);
CREATE INDEX device_commands_customer_idx ON device_commands (customer_id, created_at DESC);
