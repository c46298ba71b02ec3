-- Anti-theft cover (decision 022): the last day a phone's anti-theft is in force once it has been renewed. Before
-- any renewal it is the day before the enrolment day plus the plan's validity.
ALTER TABLE antitheft_settings ADD COLUMN covered_until date;
