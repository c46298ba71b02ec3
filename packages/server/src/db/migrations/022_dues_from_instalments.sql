-- The daily dues run reads the instalments alone. Each instalment carries its loan's organisation and whether
-- the loan is active (install_status not 3 or 5), kept in step by triggers so every writer (services, the
-- operator, bulk loads) agrees; each customer carries its loan's end date (the last due date) for "maturing".
ALTER TABLE emi_instalments ADD COLUMN org_id integer;
ALTER TABLE emi_instalments ADD COLUMN loan_active boolean;
UPDATE emi_instalments e SET org_id = c.org_id, loan_active = c.install_status NOT IN (3, 5) FROM customers c WHERE c.id = e.customer_id;
ALTER TABLE emi_instalments ALTER COLUMN org_id SET NOT NULL;
ALTER TABLE emi_instalments ALTER COLUMN loan_active SET NOT NULL;

ALTER TABLE customers ADD COLUMN last_due_date date;
UPDATE customers c SET last_due_date = e.last FROM (SELECT customer_id, max(due_date) AS last FROM emi_instalments GROUP BY customer_id) e WHERE c.id = e.customer_id;

-- A new instalment takes its loan's fields from the customer row, whatever the writer put there.
CREATE FUNCTION emi_instalment_loan_fields() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN SELECT c.org_id, c.install_status NOT IN (3, 5) INTO NEW.org_id, NEW.loan_active FROM customers c WHERE c.id = NEW.customer_id; RETURN NEW; END $$;
CREATE TRIGGER emi_instalments_loan_fields BEFORE INSERT ON emi_instalments FOR EACH ROW EXECUTE FUNCTION emi_instalment_loan_fields();

-- A loan that becomes completed or uninstalled (or comes back) moves its instalments in the same transaction.
CREATE FUNCTION follow_loan_status() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE emi_instalments SET org_id = NEW.org_id, loan_active = NEW.install_status NOT IN (3, 5) WHERE customer_id = NEW.id; RETURN NULL; END $$;
CREATE TRIGGER customers_follow_loan_status AFTER UPDATE OF install_status, org_id ON customers FOR EACH ROW
  WHEN (OLD.org_id <> NEW.org_id OR (OLD.install_status IN (3, 5)) <> (NEW.install_status IN (3, 5))) EXECUTE FUNCTION follow_loan_status();

-- The loan's end date: new instalments can only push it later (one statement per insert, however many rows);
-- a moved or removed instalment recomputes it.
CREATE FUNCTION extend_loan_end() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE customers c SET last_due_date = a.last FROM (SELECT customer_id, max(due_date) AS last FROM added GROUP BY customer_id) a WHERE c.id = a.customer_id AND (c.last_due_date IS NULL OR c.last_due_date < a.last); RETURN NULL; END $$;
CREATE TRIGGER emi_instalments_extend_loan_end AFTER INSERT ON emi_instalments REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION extend_loan_end();
CREATE FUNCTION recompute_loan_end() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE customers c SET last_due_date = (SELECT max(e.due_date) FROM emi_instalments e WHERE e.customer_id = OLD.customer_id) WHERE c.id = OLD.customer_id; RETURN NULL; END $$;
CREATE TRIGGER emi_instalments_move_loan_end AFTER UPDATE OF due_date ON emi_instalments FOR EACH ROW WHEN (OLD.due_date IS DISTINCT FROM NEW.due_date) EXECUTE FUNCTION recompute_loan_end();
CREATE TRIGGER emi_instalments_remove_loan_end AFTER DELETE ON emi_instalments FOR EACH ROW EXECUTE FUNCTION recompute_loan_end();

-- Open instalments of active loans, by organisation and due date: reminders, overdue notices. The penalty
-- update has its own, which an instalment leaves once charged, so a day's update reads only what it changes.
CREATE INDEX emi_instalments_dues_idx ON emi_instalments (org_id, due_date) WHERE loan_active AND paid_paise < amount_paise + penalty_paise;
CREATE INDEX emi_instalments_unpenalised_idx ON emi_instalments (org_id, due_date) WHERE loan_active AND penalty_applied_at IS NULL AND paid_paise < amount_paise + penalty_paise;
-- Instalments paid in full, by when: the loans that may have completed since the last run.
CREATE INDEX emi_instalments_paid_at_idx ON emi_instalments (paid_at) WHERE paid_at IS NOT NULL;
CREATE INDEX customers_maturing_idx ON customers (org_id, last_due_date) WHERE install_status = 1;

-- The device policies' queue: events still to handle, in order, without walking the handled ones.
CREATE INDEX customer_events_unhandled_idx ON customer_events (id) WHERE handled_at IS NULL AND type IN ('emi_reminder', 'emi_overdue');

-- The overdue notices are sent on changes only; a run remembers the lock threshold it worked with, so a new
-- threshold is applied once to every loan already past it.
ALTER TABLE dues_runs ADD COLUMN lock_days_overdue integer;

-- The dues run writes ledger lines and events in bulk, from the rows it has just changed or read, so what they
-- refer to exists by construction; the foreign-key checks, one per row, took as long as the penalty update itself
-- (measured with bench/dues.ts). The penalty ledger keeps its guarantee the other way round: an
-- instalment with penalty lines cannot be deleted (and a customer cannot lose its instalments). The event queue
-- keeps no reference: its rows go with their customer when an unstarted enrolment is removed.
ALTER TABLE penalty_charges DROP CONSTRAINT penalty_charges_customer_id_fkey;
ALTER TABLE penalty_charges DROP CONSTRAINT penalty_charges_account_id_fkey;
ALTER TABLE penalty_charges DROP CONSTRAINT penalty_charges_instalment_id_fkey;
CREATE FUNCTION keep_charged_instalment() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF EXISTS (SELECT 1 FROM penalty_charges p WHERE p.customer_id = OLD.customer_id AND p.instalment_id = OLD.id) THEN RAISE EXCEPTION 'instalment % has penalty charges', OLD.id; END IF; RETURN OLD; END $$;
CREATE TRIGGER emi_instalments_keep_charged BEFORE DELETE ON emi_instalments FOR EACH ROW EXECUTE FUNCTION keep_charged_instalment();
ALTER TABLE customer_events DROP CONSTRAINT customer_events_org_id_fkey;
ALTER TABLE customer_events DROP CONSTRAINT customer_events_account_id_fkey;
ALTER TABLE customer_events DROP CONSTRAINT customer_events_customer_id_fkey;
-- Replaced by customer_events_unhandled_idx (nothing reads events by organisation and time).
DROP INDEX customer_events_open_idx;
