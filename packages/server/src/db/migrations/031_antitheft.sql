-- Anti-theft on phones sold with an anti-theft product (decision 022): what the owner chose a SIM change
-- does and what lost mode shows, and what each SIM change set off.
CREATE TABLE antitheft_settings (
  customer_id              integer PRIMARY KEY REFERENCES customers(id),
  account_id               integer NOT NULL REFERENCES users(id),
  -- A SIM change turns lost mode on by itself (the owner asked for it).
  lost_mode_on_sim_change  boolean NOT NULL DEFAULT false,
  -- What lost mode shows: the owner's message and a number to call.
  message                  text CHECK (message IS NULL OR char_length(message) BETWEEN 1 AND 160),
  contact_mobile           text CHECK (contact_mobile IS NULL OR contact_mobile ~ '^\+91[6-9][0-9]{9}$'),
  updated_by               integer NOT NULL REFERENCES users(id),
  updated_at               timestamptz NOT NULL DEFAULT now()
);

-- Who was sent the SIM change alert (the owner's alternate number, the retailer), and whether the change
-- turned lost mode on.
ALTER TABLE sim_changes ADD COLUMN alerted_to text[] NOT NULL DEFAULT '{}';
ALTER TABLE sim_changes ADD COLUMN lost_mode_on boolean NOT NULL DEFAULT false;
