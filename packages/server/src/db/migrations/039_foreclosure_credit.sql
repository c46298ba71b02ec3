-- Closing a loan early credits interest paid ahead for periods that had not run as principal (decision 028): an
-- instalment not yet due may be credited in full and owe nothing, so an instalment's amount may now be 0. Enrolment
-- still refuses terms that would make an empty instalment (decision 006).
ALTER TABLE emi_instalments DROP CONSTRAINT IF EXISTS emi_instalments_amount_paise_check;
ALTER TABLE emi_instalments ADD CONSTRAINT emi_instalments_amount_paise_check CHECK (amount_paise >= 0);
