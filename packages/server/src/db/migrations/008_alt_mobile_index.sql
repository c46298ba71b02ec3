-- Searching by mobile also matches the alternate number; without this index that OR scans the account.
CREATE INDEX customers_alt_mobile_idx ON customers (alt_mobile) WHERE alt_mobile IS NOT NULL;
