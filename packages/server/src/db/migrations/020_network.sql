-- The retailer network as a tree of any depth: the organisation's retailers at the top, each of which
-- may add retailers (its distributors' network) and mini-retailers (counters of one shop) below it.
-- `path` is the chain of user ids from the top (ltree: '12.45.78'), so "this node and everything below"
-- is one indexed query (path <@ node's path).
CREATE EXTENSION IF NOT EXISTS ltree;
ALTER TABLE users ADD COLUMN path ltree;
UPDATE users SET path = text2ltree(id::text) WHERE parent_id IS NULL;
UPDATE users u SET path = p.path || text2ltree(u.id::text) FROM users p WHERE u.parent_id = p.id AND p.path IS NOT NULL AND u.path IS NULL;
UPDATE users u SET path = p.path || text2ltree(u.id::text) FROM users p WHERE u.parent_id = p.id AND p.path IS NOT NULL AND u.path IS NULL;
ALTER TABLE users ALTER COLUMN path SET NOT NULL;
CREATE INDEX users_path_idx ON users USING gist (path);
CREATE INDEX users_parent_idx ON users (parent_id);

-- Key (license) movements. Each is immutable once done; the id is chosen by the client, so the same
-- request sent twice moves keys once. kind: send (a parent to a child, at once), request (a child asks
-- its parent: pending until approved or rejected), return (a child gives unused keys back up, at once),
-- topup (the operator to a top-level retailer). price_paise: the sender's price per key ("scheme") when
-- the transfer was made, so a statement shows what is owed up the chain.
CREATE TABLE key_transfers (
  id             uuid PRIMARY KEY,
  kind           text NOT NULL CHECK (kind IN ('send', 'request', 'return', 'topup')),
  state          text NOT NULL CHECK (state IN ('done', 'pending', 'rejected')),
  product_type   integer NOT NULL,
  quantity       integer NOT NULL CHECK (quantity BETWEEN 1 AND 100000),
  from_user_id   integer REFERENCES users(id),
  to_user_id     integer NOT NULL REFERENCES users(id),
  price_paise    integer CHECK (price_paise IS NULL OR price_paise BETWEEN 0 AND 100000000),
  note           text CHECK (note IS NULL OR length(note) <= 200),
  created_by     integer REFERENCES users(id),
  created_at     timestamptz NOT NULL DEFAULT now(),
  decided_by     integer REFERENCES users(id),
  decided_at     timestamptz,
  CHECK (from_user_id IS NOT NULL OR kind = 'topup'),
  CHECK (from_user_id IS DISTINCT FROM to_user_id)
);
CREATE INDEX key_transfers_from_idx ON key_transfers (from_user_id, created_at DESC);
CREATE INDEX key_transfers_to_idx ON key_transfers (to_user_id, created_at DESC);

-- Each ledger line names the transfer it belongs to, the other party, and the balance after it.
ALTER TABLE license_ledger ADD COLUMN transfer_id uuid REFERENCES key_transfers(id);
ALTER TABLE license_ledger ADD COLUMN counterpart_id integer REFERENCES users(id);
ALTER TABLE license_ledger ADD COLUMN balance_after integer;
CREATE INDEX license_ledger_user_type_idx ON license_ledger (user_id, product_type, created_at DESC, id DESC);

-- The price per key a seller charges its children, by product type.
CREATE TABLE key_prices (
  seller_id     integer NOT NULL REFERENCES users(id),
  product_type  integer NOT NULL,
  price_paise   integer NOT NULL CHECK (price_paise BETWEEN 0 AND 100000000),
  PRIMARY KEY (seller_id, product_type)
);
