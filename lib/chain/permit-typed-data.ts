import { parseAbi } from "viem";

// EIP-2612 as USDC-like tokens implement it: the typed data of a permit, and the calls that tell
// a token's permit domain and a holder's nonce. Shared by the server (checkout with a key) and
// the browser checkout.
export const permitTypes = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

// OpenZeppelin tokens answer eip712Domain() (ERC-5267); Circle's FiatToken answers name() and version().
export const tokenPermitAbi = parseAbi([
  "function eip712Domain() view returns (bytes1, string, string, uint256, address, bytes32, uint256[])",
  "function name() view returns (string)",
  "function version() view returns (string)",
  "function nonces(address) view returns (uint256)",
]);
