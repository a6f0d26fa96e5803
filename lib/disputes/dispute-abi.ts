import "client-only";
import { parseAbi } from "viem";

// The slice of RentalEscrow's ABI the browser needs to open, accept and decide a dispute and explain a refusal
// (the full generated file also carries the bytecode). A test checks it against
// lib/chain/generated/RentalEscrow.ts, so a contract change that breaks it fails the suite.
export const disputeAbi = parseAbi([
  "function openDispute(bytes32 id)",
  "function acceptDispute(bytes32 id)",
  "function resolveDispute(bytes32 id, uint256 refund)",
  "event DisputeOpened(bytes32 indexed id)",
  "error InvalidStatus(bytes32 id, uint8 status)",
  "error RentalEnded(bytes32 id, uint64 endsAt)",
  "error SenderNotRenter()",
  "error AlreadyDisputed(bytes32 id)",
  "error RefundAbovePrice(bytes32 id, uint256 refund, uint256 price)",
  "error SenderNotOwner()",
  "error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)",
  "error ReentrancyGuardReentrantCall()",
]);

/** Escrow status numbers (docs/escrow.md) as words. */
export const ESCROW_STATUS_WORDS: Record<number, string> = {
  0: "unknown to the escrow (it was never paid on this chain)",
  1: "active",
  2: "already disputed",
  3: "already released to the owner",
  4: "already refunded",
};
