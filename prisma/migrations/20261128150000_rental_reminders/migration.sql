-- Reminders before a rental ends (issue 29; lib/rentals/remind-ending-rentals.ts): the end the
-- renter was last reminded of. The reminder cron claims a rental by setting it to ends_at in the
-- transaction that queues the e-mail and the chat notice, so each end is told once; an extension
-- moves ends_at and the new end is told again. The cron finds due rentals on the existing
-- ("status", "ends_at") index.
ALTER TABLE "rentals" ADD COLUMN "reminded_ends_at" TIMESTAMPTZ(3);
