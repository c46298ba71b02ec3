-- A retailer's own images: its photo, its signature (on agreements it prints) and its payment QR, stored as
-- files like customer documents; the UPI address and name read from the QR are kept to show and to build
-- payment links with.
ALTER TABLE users
  ADD COLUMN photo_path text,
  ADD COLUMN signature_path text,
  ADD COLUMN payment_qr_path text,
  ADD COLUMN upi_id text,
  ADD COLUMN upi_name text;
