-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "display_name" VARCHAR(60);
