-- Why a renter message failed, in the words the renter got (no reply in time, unreachable, the
-- webhook's status…): the owner's delivery log shows it. Never the message, never a URL or token.
ALTER TABLE "chat_calls" ADD COLUMN "error" TEXT;
