-- The audit log: who did what, when and from where. Append-only: triggers refuse UPDATE, DELETE and
-- TRUNCATE for every role the application connects with, so a row once written stays as written.
CREATE TABLE audit_log (
  id           bigserial PRIMARY KEY,
  at           timestamptz NOT NULL DEFAULT now(),
  -- user: a signed-in caller (or the user a sign-in attempt named); system: work without a request
  -- (schedules, dues policies, SIM-change locks); operator: the operator CLI; anonymous: nobody known.
  actor        text NOT NULL CHECK (actor IN ('user', 'system', 'operator', 'anonymous')),
  org_id       integer,
  account_id   integer,
  user_id      integer,
  action       text NOT NULL CHECK (length(action) BETWEEN 1 AND 80),
  -- The HTTP status the caller got; null for work without a request.
  status       integer,
  error_code   text,
  method       text,
  route        text,
  customer_id  integer,
  -- The ids the action was about (bounded when written), never secrets.
  targets      jsonb NOT NULL DEFAULT '{}',
  ip           text,
  user_agent   text,
  -- What the console said about the phone and browser (x-device-*, x-browser-*, x-auth-platform).
  client       jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_account_idx ON audit_log (account_id, at DESC, id DESC);
CREATE INDEX audit_log_user_idx ON audit_log (user_id, at DESC, id DESC);
CREATE INDEX audit_log_at_idx ON audit_log (at, id);

CREATE FUNCTION refuse_audit_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_audit_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_change();

-- Device commands written without a request (schedules, dues policies, SIM-change locks, the system) are
-- logged in the transaction that writes them, so none can be issued unrecorded. Commands from a request
-- (origin retailer, bulk) are logged by the request, with its caller and address.
CREATE FUNCTION audit_device_command() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO audit_log (actor, org_id, account_id, user_id, action, customer_id, targets) SELECT 'system', c.org_id, NEW.account_id, NEW.created_by, 'device.' || NEW.type, NEW.customer_id, jsonb_build_object('command_id', NEW.id, 'origin', NEW.origin) FROM customers c WHERE c.id = NEW.customer_id; RETURN NULL; END $$;
CREATE TRIGGER device_commands_audit AFTER INSERT ON device_commands FOR EACH ROW WHEN (NEW.origin NOT IN ('retailer', 'bulk')) EXECUTE FUNCTION audit_device_command();
