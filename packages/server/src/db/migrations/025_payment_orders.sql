-- Payments through a gateway (decision 015). An order is what we asked the gateway to collect: a customer's
-- dues (purpose emi) or a retailer's keys (purpose keys), for an amount we fixed. Its id is the reference the
-- gateway and the payer's UPI app carry back, so a callback finds the order, and the callback's amount is
-- compared with ours, never taken from it.
CREATE TABLE payment_orders (
  id                  text PRIMARY KEY CHECK (id ~ '^po_[A-Za-z0-9]{20}$'),
  org_id              integer NOT NULL REFERENCES organizations(id),
  account_id          integer NOT NULL REFERENCES users(id),
  -- The customer's retailer (emi), or the buyer (keys): whose list the order shows in.
  retailer_id         integer NOT NULL REFERENCES users(id),
  purpose             text NOT NULL CHECK (purpose IN ('emi', 'keys')),
  -- A cancelled enrolment (nothing paid, the customer deleted) takes its unpaid orders with it.
  customer_id         integer REFERENCES customers(id) ON DELETE CASCADE,
  product_type        integer,
  quantity            integer CHECK (quantity IS NULL OR quantity BETWEEN 1 AND 10000),
  -- Who sells the keys: the buyer's parent, or the operator (null) at the top of the network.
  seller_id           integer REFERENCES users(id),
  unit_price_paise    integer CHECK (unit_price_paise IS NULL OR unit_price_paise >= 0),
  amount_paise        integer NOT NULL CHECK (amount_paise > 0),
  currency            text NOT NULL DEFAULT 'INR' CHECK (currency = 'INR'),
  gateway             text NOT NULL,
  -- What the gateway opened (a payment link), its order, and where the payer goes.
  gateway_ref         text,
  gateway_order_id    text,
  short_url           text,
  upi_link            text,
  status              text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'held', 'expired', 'failed')),
  held_reason         text,
  -- The gateway payment that settled (or was held against) the order: one payment settles one order.
  gateway_payment_id  text UNIQUE,
  payment_id          integer REFERENCES payments(id),
  transfer_id         uuid REFERENCES key_transfers(id),
  -- A retried request with the same key finds the first order; keys are per caller ('u<user id>', or
  -- 'c<customer id>' for the phone), so two callers never collide.
  caller              text NOT NULL,
  idempotency_key     text,
  created_by          integer REFERENCES users(id),
  created_at          timestamptz NOT NULL DEFAULT now(),
  paid_at             timestamptz,
  expires_at          timestamptz NOT NULL,
  -- When reconciliation last asked the gateway about it.
  checked_at          timestamptz,
  CHECK ((purpose = 'emi') = (customer_id IS NOT NULL)),
  CHECK (purpose = 'emi' OR (product_type IS NOT NULL AND quantity IS NOT NULL AND unit_price_paise IS NOT NULL)),
  CHECK ((status = 'held') = (held_reason IS NOT NULL))
);
CREATE UNIQUE INDEX payment_orders_idempotency ON payment_orders (caller, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX payment_orders_account_idx ON payment_orders (account_id, created_at DESC, id DESC);
CREATE INDEX payment_orders_customer_idx ON payment_orders (customer_id, created_at DESC) WHERE customer_id IS NOT NULL;
CREATE INDEX payment_orders_gateway_ref_idx ON payment_orders (gateway_ref) WHERE gateway_ref IS NOT NULL;
CREATE INDEX payment_orders_gateway_order_idx ON payment_orders (gateway_order_id) WHERE gateway_order_id IS NOT NULL;
-- Reconciliation walks the open orders only.
CREATE INDEX payment_orders_pending_idx ON payment_orders (created_at) WHERE status = 'pending';

-- Every verified event the gateway sent, stored before we answer it: a durable queue the worker applies
-- from, so an event answered 2xx is applied even if the node dies the next moment. Reconciliation writes
-- what it learns here too (event ids 'recon:...'), so both take the same path.
CREATE TABLE payment_gateway_events (
  id                  bigserial PRIMARY KEY,
  gateway             text NOT NULL,
  event_id            text NOT NULL,
  event_type          text NOT NULL,
  body                text NOT NULL,
  received_at         timestamptz NOT NULL DEFAULT now(),
  applied_at          timestamptz,
  -- credited, held, duplicate, extra_payment, noted, failed, unknown_order, unreadable
  outcome             text,
  order_id            text REFERENCES payment_orders(id) ON DELETE SET NULL,
  -- Set on the one event that credited or held a payment: a payment is applied once whatever reports it.
  applied_payment_id  text,
  tries               integer NOT NULL DEFAULT 0,
  next_attempt_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (gateway, event_id)
);
CREATE UNIQUE INDEX payment_gateway_events_payment ON payment_gateway_events (gateway, applied_payment_id) WHERE applied_payment_id IS NOT NULL;
CREATE INDEX payment_gateway_events_open_idx ON payment_gateway_events (next_attempt_at, id) WHERE applied_at IS NULL;
