-- Offline codes the phone has taken, per purpose (from its log): the server issues no more than the
-- phone's look-ahead above them, so unused codes can never push later ones out of the phone's window.
ALTER TABLE devices ADD COLUMN code_used jsonb NOT NULL DEFAULT '{"unlock": 0, "lock": 0, "bypass": 0}';
