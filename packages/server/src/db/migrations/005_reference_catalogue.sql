-- Reference data: products and plans of the two organisations, common phone brands, a demo financier,
-- India with its states and union territories and their main cities.
INSERT INTO products (org_id, product_type, name) VALUES
  (23, 0, 'EMI Locker (Android)'), (23, 11, 'EMI Locker Lite'), (23, 2, 'EMI Locker (iPhone)'),
  (23, 1, 'EMI Locker (LINKFL)'), (23, 9, 'EMI Locker with anti-theft'), (23, 4, 'Anti-theft'),
  (46, 0, 'EMI Locker (Android)'), (46, 2, 'EMI Locker (iPhone)');

INSERT INTO plans (org_id, product_id, name, plan_type, validity_days, price_paise)
SELECT p.org_id, p.id, p.name || ' - 1 year', p.product_type, 365, NULL FROM products p;

INSERT INTO brands (name) VALUES
  ('Samsung'), ('Xiaomi'), ('Redmi'), ('Vivo'), ('Oppo'), ('Realme'), ('OnePlus'), ('Apple'), ('Motorola'),
  ('Nokia'), ('iQOO'), ('Poco'), ('Tecno'), ('Infinix'), ('Lava'), ('Nothing'), ('Google');

INSERT INTO financiers (org_id, code, name, required_fields) VALUES
  (23, 'SELF', 'Own finance (retailer)', '[]'),
  (23, 'HDB', 'HDB Financial Services', '["loan_reference", "agreement_number"]'),
  (23, 'BAJAJ', 'Bajaj Finance', '["loan_reference"]'),
  (46, 'SELF', 'Own finance (retailer)', '[]');

INSERT INTO countries (code, name) VALUES ('IN', 'India');

INSERT INTO states (country_id, code, name)
SELECT c.id, s.code, s.name FROM countries c, (VALUES
  ('AP', 'Andhra Pradesh'), ('AR', 'Arunachal Pradesh'), ('AS', 'Assam'), ('BR', 'Bihar'), ('CT', 'Chhattisgarh'),
  ('GA', 'Goa'), ('GJ', 'Gujarat'), ('HR', 'Haryana'), ('HP', 'Himachal Pradesh'), ('JH', 'Jharkhand'),
  ('KA', 'Karnataka'), ('KL', 'Kerala'), ('MP', 'Madhya Pradesh'), ('MH', 'Maharashtra'), ('MN', 'Manipur'),
  ('ML', 'Meghalaya'), ('MZ', 'Mizoram'), ('NL', 'Nagaland'), ('OR', 'Odisha'), ('PB', 'Punjab'),
  ('RJ', 'Rajasthan'), ('SK', 'Sikkim'), ('TN', 'Tamil Nadu'), ('TG', 'Telangana'), ('TR', 'Tripura'),
  ('UP', 'Uttar Pradesh'), ('UT', 'Uttarakhand'), ('WB', 'West Bengal'), ('AN', 'Andaman and Nicobar Islands'),
  ('CH', 'Chandigarh'), ('DH', 'Dadra and Nagar Haveli and Daman and Diu'), ('DL', 'Delhi'),
  ('JK', 'Jammu and Kashmir'), ('LA', 'Ladakh'), ('LD', 'Lakshadweep'), ('PY', 'Puducherry')
) AS s(code, name) WHERE c.code = 'IN';

INSERT INTO cities (state_id, name)
SELECT st.id, ct.name FROM states st JOIN (VALUES
  ('AP', 'Visakhapatnam'), ('AP', 'Vijayawada'), ('AP', 'Guntur'), ('AR', 'Itanagar'), ('AS', 'Guwahati'),
  ('BR', 'Patna'), ('BR', 'Gaya'), ('CT', 'Raipur'), ('GA', 'Panaji'), ('GJ', 'Ahmedabad'), ('GJ', 'Surat'),
  ('GJ', 'Vadodara'), ('GJ', 'Rajkot'), ('HR', 'Gurugram'), ('HR', 'Faridabad'), ('HP', 'Shimla'),
  ('JH', 'Ranchi'), ('KA', 'Bengaluru'), ('KA', 'Mysuru'), ('KA', 'Hubballi'), ('KL', 'Kochi'),
  ('KL', 'Thiruvananthapuram'), ('MP', 'Indore'), ('MP', 'Bhopal'), ('MH', 'Mumbai'), ('MH', 'Pune'),
  ('MH', 'Nagpur'), ('MH', 'Nashik'), ('MN', 'Imphal'), ('ML', 'Shillong'), ('MZ', 'Aizawl'), ('NL', 'Kohima'),
  ('OR', 'Bhubaneswar'), ('OR', 'Cuttack'), ('PB', 'Ludhiana'), ('PB', 'Amritsar'), ('PB', 'Jalandhar'),
  ('RJ', 'Jaipur'), ('RJ', 'Jodhpur'), ('RJ', 'Ajmer'), ('RJ', 'Udaipur'), ('SK', 'Gangtok'),
  ('TN', 'Chennai'), ('TN', 'Coimbatore'), ('TN', 'Madurai'), ('TG', 'Hyderabad'), ('TG', 'Warangal'),
  ('TR', 'Agartala'), ('UP', 'Lucknow'), ('UP', 'Kanpur'), ('UP', 'Varanasi'), ('UP', 'Agra'),
  ('UT', 'Dehradun'), ('WB', 'Kolkata'), ('WB', 'Siliguri'), ('AN', 'Port Blair'), ('CH', 'Chandigarh'),
  ('DH', 'Daman'), ('DL', 'New Delhi'), ('JK', 'Srinagar'), ('JK', 'Jammu'), ('LA', 'Leh'),
  ('LD', 'Kavaratti'), ('PY', 'Puducherry')
) AS ct(state_code, name) ON ct.state_code = st.code;
