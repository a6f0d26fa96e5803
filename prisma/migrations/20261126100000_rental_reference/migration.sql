-- What owners know a rental by (X-Rental-Ref, rental.ref, their pages and e-mails): 122 random
-- bits drawn by the database, unrelated to the id (whose first 8 characters are the renter's
-- code). Existing rentals get one each as the column is added (the default is volatile, so every
-- row draws its own).
ALTER TABLE "rentals" ADD COLUMN "ref" TEXT NOT NULL DEFAULT ('rr_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text));

CREATE UNIQUE INDEX "rentals_ref_key" ON "rentals"("ref");
