-- Customers counted by network, retailer, install status and lock status (decision 012). Triggers on
-- customers keep the counts in the transaction that changes the customers, with one set-based statement per
-- statement on customers, whoever writes (the API, bulk device reports, the dues run, a bulk seed), so the
-- dashboard and the customer list's totals read a few rows instead of counting the whole book.
--
-- Each count is split over slots and a connection writes only to its own slot, so concurrent transactions
-- of one network never wait on each other's summary rows (nor deadlock on them) and a long transaction
-- (the dues run, a bulk batch) blocks nobody. A slot's count may go below zero (a customer added in one slot
-- and removed in another); the sum over the slots is the number of customers. Readers always sum.
CREATE TABLE customer_summaries (
  account_id      integer NOT NULL,
  retailer_id     integer NOT NULL,
  install_status  smallint NOT NULL,
  lock_status     smallint NOT NULL,
  slot            smallint NOT NULL,
  customers       integer NOT NULL,
  PRIMARY KEY (account_id, retailer_id, install_status, lock_status, slot)
) WITH (fillfactor = 50);

-- The connection's slot: one of 64 held with a session advisory lock for the connection's life (released
-- when it closes), remembered in a session setting. With more writing connections than slots, a connection
-- shares a slot: still exact, but it may then wait for the other's commit.
CREATE FUNCTION customer_summary_slot() RETURNS smallint LANGUAGE plpgsql AS $$
DECLARE
  taken integer := nullif(current_setting('kisht.customer_summary_slot', true), '')::integer;
BEGIN
  IF taken IS NOT NULL THEN
    RETURN taken;
  END IF;
  -- The setting goes with a rolled-back transaction, the advisory lock does not: find a slot already held.
  SELECT objid::bigint::integer INTO taken FROM pg_locks
   WHERE locktype = 'advisory' AND classid = 4242023 AND objsubid = 2 AND pid = pg_backend_pid() AND granted
   ORDER BY objid LIMIT 1;
  IF taken IS NULL THEN
    FOR candidate IN 0..63 LOOP
      IF pg_try_advisory_lock(4242023, candidate) THEN
        taken := candidate;
        EXIT;
      END IF;
    END LOOP;
  END IF;
  taken := coalesce(taken, pg_backend_pid() % 64);
  PERFORM set_config('kisht.customer_summary_slot', taken::text, false);
  RETURN taken;
END $$;

-- One statement's change: +1 per new row, -1 per old row, netted per key, written in key order (so two
-- writers sharing a slot take its rows in the same order). An edit that moves no customer writes nothing.
CREATE FUNCTION customer_summaries_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  own_slot smallint := customer_summary_slot();
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_summaries AS s (account_id, retailer_id, install_status, lock_status, slot, customers)
    SELECT account_id, retailer_id, install_status, lock_status, own_slot, count(*)
      FROM customers_after GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (account_id, retailer_id, install_status, lock_status, slot) DO UPDATE SET customers = s.customers + excluded.customers;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO customer_summaries AS s (account_id, retailer_id, install_status, lock_status, slot, customers)
    SELECT account_id, retailer_id, install_status, lock_status, own_slot, -count(*)
      FROM customers_before GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (account_id, retailer_id, install_status, lock_status, slot) DO UPDATE SET customers = s.customers + excluded.customers;
  ELSE
    INSERT INTO customer_summaries AS s (account_id, retailer_id, install_status, lock_status, slot, customers)
    SELECT account_id, retailer_id, install_status, lock_status, own_slot, sum(change)
      FROM (SELECT account_id, retailer_id, install_status, lock_status, 1 AS change FROM customers_after
            UNION ALL
            SELECT account_id, retailer_id, install_status, lock_status, -1 FROM customers_before) AS moved
     GROUP BY 1, 2, 3, 4 HAVING sum(change) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (account_id, retailer_id, install_status, lock_status, slot) DO UPDATE SET customers = s.customers + excluded.customers;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION customer_summaries_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM customer_summaries;
  RETURN NULL;
END $$;

-- The triggers exist before the backfill reads: creating them waits for every open writer of customers and
-- holds later ones off until this migration commits, so no change falls between the two.
CREATE TRIGGER customers_summaries_insert AFTER INSERT ON customers REFERENCING NEW TABLE AS customers_after
  FOR EACH STATEMENT EXECUTE FUNCTION customer_summaries_apply();
CREATE TRIGGER customers_summaries_update AFTER UPDATE ON customers REFERENCING OLD TABLE AS customers_before NEW TABLE AS customers_after
  FOR EACH STATEMENT EXECUTE FUNCTION customer_summaries_apply();
CREATE TRIGGER customers_summaries_delete AFTER DELETE ON customers REFERENCING OLD TABLE AS customers_before
  FOR EACH STATEMENT EXECUTE FUNCTION customer_summaries_apply();
CREATE TRIGGER customers_summaries_truncate AFTER TRUNCATE ON customers
  FOR EACH STATEMENT EXECUTE FUNCTION customer_summaries_clear();

INSERT INTO customer_summaries (account_id, retailer_id, install_status, lock_status, slot, customers)
SELECT account_id, retailer_id, install_status, lock_status, 0, count(*) FROM customers GROUP BY 1, 2, 3, 4;

-- With the totals read from the summaries, the list's page is its only query: give the filters it offers
-- their own order, so a page of a mini-retailer's customers, or of locked ones, reads about 20 index entries
-- however rare they are in a big network. The lock index replaces the one built for counting.
CREATE INDEX customers_account_retailer_created_idx ON customers (account_id, retailer_id, created_at DESC, id DESC);
CREATE INDEX customers_account_lock_created_idx ON customers (account_id, lock_status, created_at DESC, id DESC);
DROP INDEX customers_account_lock_idx;
