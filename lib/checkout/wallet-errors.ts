// A wallet, RPC or contract error in words a renter can act on.
export type DescribedError = { message: string; rejected: boolean };

const REVERTS: Record<string, string> = {
  QuoteExpired: "The price quote expired before the payment was sent. Retry to get a fresh quote.",
  InvalidSignature: "The escrow did not accept the service's quote signature. Retry to get a fresh quote.",
  UnauthorizedSigner: "The escrow did not accept the service's quote signer. Contact support; nothing was paid.",
  SenderNotRenter: "The payment must come from the wallet the quote was made for. Reconnect that wallet and retry.",
  RentalExists: "This quote was already paid. Retry to get a fresh quote (and check your rentals first).",
  PermitFailed: "The token did not accept your signed approval: no USDC left your wallet. Retry to sign it again.",
  EnforcedPause: "Payments are paused on the escrow right now. Nothing was paid; try again later.",
  ERC20InsufficientBalance: "Your USDC balance is too low for this payment.",
  ERC20InsufficientAllowance: "The escrow is not allowed to take this much USDC yet. Retry the approval.",
};

function walk(error: unknown): { names: string[]; codes: number[]; messages: string[] } {
  const names: string[] = [];
  const codes: number[] = [];
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    if (typeof current !== "object") {
      messages.push(String(current));
      break;
    }
    const e = current as {
      name?: unknown;
      code?: unknown;
      shortMessage?: unknown;
      message?: unknown;
      data?: { errorName?: unknown };
      cause?: unknown;
    };
    if (typeof e.name === "string") names.push(e.name);
    if (typeof e.code === "number") codes.push(e.code);
    if (e.data && typeof e.data.errorName === "string") names.push(e.data.errorName);
    if (typeof e.shortMessage === "string") messages.push(e.shortMessage);
    else if (typeof e.message === "string") messages.push(e.message);
    current = e.cause;
  }
  return { names, codes, messages };
}

export function describeWalletError(error: unknown): DescribedError {
  const { names, codes, messages } = walk(error);
  const text = messages.join(" | ");
  if (
    codes.includes(4001) ||
    names.includes("UserRejectedRequestError") ||
    /user (rejected|denied)|rejected the request|denied transaction/i.test(text)
  ) {
    return { message: "You declined the request in your wallet. Nothing was sent.", rejected: true };
  }
  if (names.includes("ProviderNotFoundError") || /provider not found/i.test(text)) {
    return {
      message: "No wallet was found in this browser. Install a wallet extension (such as MetaMask), or use another connection option.",
      rejected: false,
    };
  }
  // Coinbase Wallet and WalletConnect load their code when first used: a lost connection fails that.
  if (/ChunkLoadError|Loading chunk|Failed to fetch dynamically imported module|error loading dynamically imported module/i.test(text)) {
    return {
      message: "This wallet option could not be loaded: check your connection, reload the page and try again, or use another wallet.",
      rejected: false,
    };
  }
  if (codes.includes(-32002) || /already pending/i.test(text)) {
    return {
      message: "Your wallet already has a request open: finish or close it in the wallet, then retry.",
      rejected: false,
    };
  }
  for (const name of names) if (REVERTS[name]) return { message: REVERTS[name], rejected: false };
  for (const [name, words] of Object.entries(REVERTS)) if (text.includes(name)) return { message: words, rejected: false };
  if (names.includes("ChainMismatchError") || /chain mismatch|does not match the target chain/i.test(text)) {
    return { message: "Your wallet is on another network. Switch networks and retry.", rejected: false };
  }
  if (/insufficient funds/i.test(text)) {
    return {
      message: "Your wallet does not have enough of the network's native coin to pay the transaction fee (gas).",
      rejected: false,
    };
  }
  if (names.includes("WaitForTransactionReceiptTimeoutError")) {
    return {
      message: "The transaction was sent but is not mined yet. Retry to keep waiting for it (it will not be sent twice).",
      rejected: false,
    };
  }
  if (names.includes("HttpRequestError") || /fetch failed|Failed to fetch|NetworkError/i.test(text)) {
    return { message: "The network could not be reached. Check your connection and retry.", rejected: false };
  }
  const first = messages.find((m) => m.trim().length > 0)?.split("\n")[0];
  return { message: first ? `${first.slice(0, 300)}` : "Something went wrong.", rejected: false };
}
