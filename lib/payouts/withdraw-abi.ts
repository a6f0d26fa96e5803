import "client-only";
import { parseAbi } from "viem";

// The slice of RentalEscrow's ABI the payouts page needs to withdraw a credit (a test checks it
// against lib/chain/generated/RentalEscrow.ts).
export const withdrawAbi = parseAbi([
  "function withdraw()",
  "function credits(address payee) view returns (uint256)",
  "event Withdrawn(address indexed payee, uint256 amount)",
  "error NothingToWithdraw()",
]);
