-- The dashboard's money figures from kept sums instead of the whole book (decision 014), in the pattern of the
-- customer counts (023): statement triggers write one set-based change per statement into the writing
-- connection's slot, so concurrent payments of one network never wait on a summary row; readers always sum.
--
-- dues_summaries: open instalments of active loans (the dues run's and the dashboard's "open": not paid in full,
-- loan not completed or uninstalled) by network, retailer and due date: how many and what is outstanding.
-- collection_days: the payment ledger's net amount by network, retailer and India date.
CREATE TABLE dues_summaries (
  account_id        integer NOT NULL,
  retailer_id       integer NOT NULL,
  due_date          date NOT NULL,
  slot              smallint NOT NULL,
  instalments       integer NOT NULL,
  outstanding_paise bigint NOT NULL,
  PRIMARY KEY (account_id, retailer_id, due_date, slot)
) WITH (fillfactor = 50);

CREATE TABLE collection_days (
  account_id   integer NOT NULL,
  retailer_id  integer NOT NULL,
  day          date NOT NULL,
  slot         smallint NOT NULL,
  amount_paise bigint NOT NULL,
  PRIMARY KEY (account_id, retailer_id, day, slot)
) WITH (fillfactor = 50);

-- An instalment carries its loan's retailer as it carries the organisation (022), so the sums need no join and a
-- loan moved to another retailer moves its instalments, and with them its dues, in the same statement.
ALTER TABLE emi_instalments ADD COLUMN retailer_id integer;
UPDATE emi_instalments e SET retailer_id = c.retailer_id FROM customers c WHERE c.id = e.customer_id;
ALTER TABLE emi_instalments ALTER COLUMN retailer_id SET NOT NULL;

CREATE OR REPLACE FUNCTION emi_instalment_loan_fields() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN SELECT c.org_id, c.retailer_id, c.install_status NOT IN (3, 5) INTO NEW.org_id, NEW.retailer_id, NEW.loan_active FROM customers c WHERE c.id = NEW.customer_id; RETURN NEW; END $$;
CREATE OR REPLACE FUNCTION follow_loan_status() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE emi_instalments SET org_id = NEW.org_id, retailer_id = NEW.retailer_id, account_id = NEW.account_id, loan_active = NEW.install_status NOT IN (3, 5) WHERE customer_id = NEW.id; RETURN NULL; END $$;
DROP TRIGGER customers_follow_loan_status ON customers;
CREATE TRIGGER customers_follow_loan_status AFTER UPDATE OF install_status, org_id, retailer_id, account_id ON customers FOR EACH ROW
  WHEN (OLD.org_id <> NEW.org_id OR OLD.retailer_id <> NEW.retailer_id OR OLD.account_id <> NEW.account_id
        OR (OLD.install_status IN (3, 5)) <> (NEW.install_status IN (3, 5))) EXECUTE FUNCTION follow_loan_status();

-- One statement's change to the open dues: what the new rows hold minus what the old rows held, netted per key
-- and written in key order. A statement that changes nothing open (a paid instalment edited, a loan that stays
-- closed) writes nothing.
CREATE FUNCTION dues_summaries_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  own_slot smallint := customer_summary_slot();
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO dues_summaries AS s (account_id, retailer_id, due_date, slot, instalments, outstanding_paise)
    SELECT account_id, retailer_id, due_date, own_slot, count(*), sum(amount_paise + penalty_paise - paid_paise)
      FROM instalments_after WHERE loan_active AND paid_paise < amount_paise + penalty_paise
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (account_id, retailer_id, due_date, slot) DO UPDATE
      SET instalments = s.instalments + excluded.instalments, outstanding_paise = s.outstanding_paise + excluded.outstanding_paise;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO dues_summaries AS s (account_id, retailer_id, due_date, slot, instalments, outstanding_paise)
    SELECT account_id, retailer_id, due_date, own_slot, -count(*), -sum(amount_paise + penalty_paise - paid_paise)
      FROM instalments_before WHERE loan_active AND paid_paise < amount_paise + penalty_paise
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (account_id, retailer_id, due_date, slot) DO UPDATE
      SET instalments = s.instalments + excluded.instalments, outstanding_paise = s.outstanding_paise + excluded.outstanding_paise;
  ELSE
    INSERT INTO dues_summaries AS s (account_id, retailer_id, due_date, slot, instalments, outstanding_paise)
    SELECT account_id, retailer_id, due_date, own_slot, sum(n), sum(paise)
      FROM (SELECT account_id, retailer_id, due_date, 1 AS n, (amount_paise + penalty_paise - paid_paise)::bigint AS paise
              FROM instalments_after WHERE loan_active AND paid_paise < amount_paise + penalty_paise
            UNION ALL
            SELECT account_id, retailer_id, due_date, -1, -(amount_paise + penalty_paise - paid_paise)::bigint
              FROM instalments_before WHERE loan_active AND paid_paise < amount_paise + penalty_paise) AS moved
     GROUP BY 1, 2, 3 HAVING sum(n) <> 0 OR sum(paise) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (account_id, retailer_id, due_date, slot) DO UPDATE
      SET instalments = s.instalments + excluded.instalments, outstanding_paise = s.outstanding_paise + excluded.outstanding_paise;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION dues_summaries_clear() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN DELETE FROM dues_summaries; RETURN NULL; END $$;

CREATE TRIGGER emi_instalments_dues_insert AFTER INSERT ON emi_instalments REFERENCING NEW TABLE AS instalments_after
  FOR EACH STATEMENT EXECUTE FUNCTION dues_summaries_apply();
CREATE TRIGGER emi_instalments_dues_update AFTER UPDATE ON emi_instalments REFERENCING OLD TABLE AS instalments_before NEW TABLE AS instalments_after
  FOR EACH STATEMENT EXECUTE FUNCTION dues_summaries_apply();
CREATE TRIGGER emi_instalments_dues_delete AFTER DELETE ON emi_instalments REFERENCING OLD TABLE AS instalments_before
  FOR EACH STATEMENT EXECUTE FUNCTION dues_summaries_apply();
CREATE TRIGGER emi_instalments_dues_truncate AFTER TRUNCATE ON emi_instalments
  FOR EACH STATEMENT EXECUTE FUNCTION dues_summaries_clear();

-- The ledger is append-only (006), so a payment only ever adds to its day. Its retailer is its customer's: a
-- customer moved to another retailer takes its collected amounts along, as the query over the ledger would.
CREATE FUNCTION collection_days_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO collection_days AS s (account_id, retailer_id, day, slot, amount_paise)
  SELECT p.account_id, c.retailer_id, (p.created_at AT TIME ZONE 'Asia/Kolkata')::date, customer_summary_slot(), sum(p.amount_paise)
    FROM payments_after p JOIN customers c ON c.id = p.customer_id
   GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (account_id, retailer_id, day, slot) DO UPDATE SET amount_paise = s.amount_paise + excluded.amount_paise;
  RETURN NULL;
END $$;
CREATE TRIGGER payments_collection_days AFTER INSERT ON payments REFERENCING NEW TABLE AS payments_after
  FOR EACH STATEMENT EXECUTE FUNCTION collection_days_apply();

-- A row trigger with a WHEN, not a statement trigger: moves are rare, and joining a statement's two transition
-- tables (which have no index) would cost every bulk update of customers (the dues run marks thousands at once)
-- a nested loop over both.
CREATE FUNCTION collection_days_follow_customer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO collection_days AS s (account_id, retailer_id, day, slot, amount_paise)
  SELECT account_id, retailer_id, day, customer_summary_slot(), sum(amount)
    FROM (SELECT p.account_id, NEW.retailer_id AS retailer_id, (p.created_at AT TIME ZONE 'Asia/Kolkata')::date AS day, p.amount_paise::bigint AS amount
            FROM payments p WHERE p.customer_id = NEW.id
          UNION ALL
          SELECT p.account_id, OLD.retailer_id, (p.created_at AT TIME ZONE 'Asia/Kolkata')::date, -p.amount_paise::bigint
            FROM payments p WHERE p.customer_id = NEW.id) AS moved
   GROUP BY 1, 2, 3 HAVING sum(amount) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (account_id, retailer_id, day, slot) DO UPDATE SET amount_paise = s.amount_paise + excluded.amount_paise;
  RETURN NULL;
END $$;
CREATE TRIGGER customers_collection_days AFTER UPDATE OF retailer_id ON customers FOR EACH ROW
  WHEN (OLD.retailer_id <> NEW.retailer_id) EXECUTE FUNCTION collection_days_follow_customer();

INSERT INTO dues_summaries (account_id, retailer_id, due_date, slot, instalments, outstanding_paise)
SELECT account_id, retailer_id, due_date, 0, count(*), sum(amount_paise + penalty_paise - paid_paise)
  FROM emi_instalments WHERE loan_active AND paid_paise < amount_paise + penalty_paise GROUP BY 1, 2, 3;
INSERT INTO collection_days (account_id, retailer_id, day, slot, amount_paise)
SELECT p.account_id, c.retailer_id, (p.created_at AT TIME ZONE 'Asia/Kolkata')::date, 0, sum(p.amount_paise)
  FROM payments p JOIN customers c ON c.id = p.customer_id GROUP BY 1, 2, 3;
