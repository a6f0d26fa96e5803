/*
  Warnings:

  - You are about to drop the column `arbiter` on the `sessions` table. All the data in the column will be lost.

*/
-- The arbiter role is read on chain at every request (lib/auth/check-arbiter-role.ts): a flag
-- kept from sign-in would let a revoked arbiter in for the session's 30 days.
-- AlterTable
ALTER TABLE "sessions" DROP COLUMN "arbiter";
