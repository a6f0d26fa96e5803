-- AlterTable
ALTER TABLE "rentals" ADD COLUMN     "dispute_refund_micro_usdc" BIGINT;
