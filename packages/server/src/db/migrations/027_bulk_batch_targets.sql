-- A bulk lock or unlock answers once its batch and targets are stored; the commands are written after, a chunk
-- per transaction (decision 017). A target waits here until the transaction that writes its command (or
-- records why it was skipped) deletes it, so a target is written once, and a crash loses nothing: the rows
-- of a chunk whose transaction did not commit are still here.
CREATE TABLE command_batch_pending (
  batch_id     uuid NOT NULL REFERENCES command_batches(id),
  -- No foreign key: a customer removed before its command was written is skipped as NOT_FOUND.
  customer_id  integer NOT NULL,
  PRIMARY KEY (batch_id, customer_id)
);

-- Set while the batch has targets to write: the node writing it pushes it forward with each chunk. Once it
-- has passed, the writer is taken to be gone and the device sweep of any node finishes the batch.
ALTER TABLE command_batches ADD COLUMN lease_until timestamptz;
CREATE INDEX command_batches_lease_idx ON command_batches (lease_until) WHERE lease_until IS NOT NULL;

-- One command per customer of a batch. A retry first takes the failed attempt out of the batch (batch_id NULL),
-- in the transaction that writes the new one. This index also serves the batch's reads.
CREATE UNIQUE INDEX IF NOT EXISTS device_commands_batch_customer_idx ON device_commands (batch_id, customer_id) WHERE batch_id IS NOT NULL;
DROP INDEX device_commands_batch_idx;
