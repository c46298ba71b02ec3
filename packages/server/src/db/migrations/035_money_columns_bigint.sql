-- Money that can add up past 2^31 paise (Rs 2.1 crore) is bigint (issue 15). One instalment of a Rs 1 crore
-- loan with its penalties, a payment order for everything a customer owes, or a loan's total at a high flat
-- rate can pass it; an integer column then failed the statement. Amounts capped well below it by the API
-- (prices, catalogue prices) stay integer. The driver reads int8 as a number (database.ts).
ALTER TABLE emi_instalments
  ALTER COLUMN principal_paise TYPE bigint,
  ALTER COLUMN interest_paise TYPE bigint,
  ALTER COLUMN amount_paise TYPE bigint,
  ALTER COLUMN paid_paise TYPE bigint,
  ALTER COLUMN penalty_paise TYPE bigint;
ALTER TABLE payments ALTER COLUMN amount_paise TYPE bigint;
ALTER TABLE payment_allocations ALTER COLUMN amount_paise TYPE bigint;
ALTER TABLE emi_alerts ALTER COLUMN amount_paise TYPE bigint;
ALTER TABLE payment_orders
  ALTER COLUMN amount_paise TYPE bigint,
  ALTER COLUMN received_paise TYPE bigint;
ALTER TABLE payment_claims ALTER COLUMN amount_paise TYPE bigint;
-- A dues-run penalty is a share of what is overdue on one instalment, which can itself pass 2^31 paise.
ALTER TABLE penalty_charges ALTER COLUMN amount_paise TYPE bigint;
