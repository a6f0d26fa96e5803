-- Microsoft Teams and Google Chat, two more bots on Vercel's Chat SDK (issue 30, docs/channels.md).
-- Rentals bought for them, their chat users and their messages are recorded with channel 'Teams'
-- or 'GoogleChat' (people see "Google Chat"; the owner's webhook payload carries the value as it
-- is). PostgreSQL accepts ADD VALUE inside a transaction as long as nothing in the same
-- transaction uses the new value, and nothing here does.
ALTER TYPE "Channel" ADD VALUE 'Teams';
ALTER TYPE "Channel" ADD VALUE 'GoogleChat';
