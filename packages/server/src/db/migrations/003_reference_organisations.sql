-- The organisations the product ships configured for: 23 (one-touch, the app's own) and 46.
INSERT INTO organizations (id, name, short_name, company_name, parent_company_name, ai_assistant_name,
                           support_phone, support_email, support_whatsapp, support_hours, offline_lock_days)
VALUES
  (23, 'One Touch', 'one-touch', 'One Touch Device Finance Pvt. Ltd.', 'One Touch Group', 'Saathi',
   '+918000000023', 'support@onetouch.example', '+918000000023', '09:00-21:00 IST', 7),
  (46, 'Zen Lock', 'zen-lock', 'Zen Lock Solutions Pvt. Ltd.', 'Zen Holdings', 'Zia',
   '+918000000046', 'help@zenlock.example', NULL, '10:00-19:00 IST', 10)
ON CONFLICT (id) DO NOTHING;

INSERT INTO price_list (org_id, product_type, name, validity_days, price_paise, sort_order) VALUES
  (23, 0, 'EMI Locker (Android)', 365, 29900, 1),
  (23, 11, 'EMI Locker Lite', 365, 19900, 2),
  (23, 2, 'EMI Locker (iPhone)', 365, 49900, 3),
  (23, 4, 'Anti-theft', 365, 14900, 4),
  (23, 5, 'Extended warranty', 365, NULL, 5),
  (23, 7, 'Family care', 365, NULL, 6),
  (23, 8, 'Anti-hacking', 365, 9900, 7),
  (46, 0, 'EMI Locker (Android)', 365, 27900, 1),
  (46, 2, 'EMI Locker (iPhone)', 365, NULL, 2);
