// The payment contracts on a local anvil chain: a TestUSDC and the RentalEscrow whose roles are
// held by distinct anvil default accounts. `npm run dev` uses ensureLocalChain (deploy once,
// remember the addresses, fund the demo renter); the contract tests use deployEscrowContracts.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import {
  type Abi,
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  type Transport,
  toHex,
  type WalletClient,
} from "viem";
import type { HDAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import * as RentalEscrow from "@/lib/chain/generated/RentalEscrow";
import * as TestUSDC from "@/lib/chain/generated/TestUSDC";
import { accounts } from "./start-anvil";

// Who holds what on a local chain (the contract tests use the same accounts).
export const [admin, signer, operator, arbiter, treasury, renter, owner, other, renter2, owner2] = accounts;

export const LOCAL_CHAIN_ID = foundry.id; // 31337, anvil's default
const USDC = 1_000_000n;
// The demo renter is topped up to this when it holds less than the floor.
const RENTER_TOP_UP = 10_000n * USDC;
const RENTER_FLOOR = 1_000n * USDC;

export function privateKeyOf(account: HDAccount): Hex {
  return toHex(account.getHdKey().privateKey!);
}

type Artifact = { abi: Abi | readonly unknown[]; bytecode: Hex };
type Clients = { publicClient: PublicClient<Transport, Chain>; walletClient: WalletClient<Transport, Chain> };

/** Deploys `token` (TestUSDC by default) and a RentalEscrow on it from the admin account:
 * constructor (token, admin, treasury, signer, operator, arbiter). */
export async function deployEscrowContracts({ publicClient, walletClient }: Clients, token: Artifact = TestUSDC) {
  async function deploy(artifact: Artifact, args: readonly unknown[]) {
    const hash = await walletClient.deployContract({
      account: admin,
      chain: walletClient.chain,
      abi: artifact.abi as Abi,
      bytecode: artifact.bytecode,
      args,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (!receipt.contractAddress) throw new Error("deployment produced no contract");
    return { address: getAddress(receipt.contractAddress), blockNumber: receipt.blockNumber };
  }
  const tokenDeployment = await deploy(token, []);
  const escrowDeployment = await deploy(RentalEscrow, [
    tokenDeployment.address,
    admin.address,
    treasury.address,
    signer.address,
    operator.address,
    arbiter.address,
  ]);
  return {
    token: tokenDeployment.address,
    escrow: escrowDeployment.address,
    blockNumber: escrowDeployment.blockNumber,
  };
}

export type LocalChain = {
  chainId: number;
  rpcUrl: string;
  usdc: Address;
  escrow: Address;
  /** Block of the escrow's deployment: where the event reader starts. */
  startBlock: bigint;
  quoteSignerKey: Hex;
  operatorKey: Hex;
  /** A funded demo renter: its key pays the demo rental and `npm run cli -- rental:checkout`. */
  renterKey: Hex;
  renter: Address;
  /** Holds ARBITER_ROLE: signs in to the dispute console, and `npm run cli -- dispute:resolve`. */
  arbiterKey: Hex;
  arbiter: Address;
  /** Sends the release sweep's transactions. */
  operator: Address;
  /** The demo owner's payout wallet, and its key: accepting a dispute sends from that wallet. */
  owner: Address;
  ownerKey: Hex;
  treasury: Address;
  /** True when the contracts were deployed on this start (a new chain, or new contract code). */
  deployed: boolean;
};

type Deployment = { chainId: number; usdc: Address; escrow: Address; startBlock: string; codeHash: Hex };

// Changes when either contract is rebuilt, so a rebuilt escrow gets deployed afresh. The suffix
// names how rentals are identified on chain: escrows that held rentals under their UUID (which
// revealed the rental code) were replaced once random escrow ids came in.
const ESCROW_ID_SCHEME = "random-escrow-ids";
const codeHash = keccak256(`${RentalEscrow.bytecode}${TestUSDC.bytecode.slice(2)}${Buffer.from(ESCROW_ID_SCHEME).toString("hex")}`);

function readDeployment(file: string): Deployment | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Deployment;
  } catch {
    return null;
  }
}

/**
 * The contracts on the local chain at `rpcUrl`: the deployment remembered in `deploymentFile` when
 * its escrow is still there (anvil keeps its state between starts), else a new one, remembered.
 * The demo renter is topped up with test USDC when it runs low.
 */
export async function ensureLocalChain(rpcUrl: string, deploymentFile: string): Promise<LocalChain> {
  const transport = http(rpcUrl);
  const publicClient = createPublicClient({ chain: foundry, transport, pollingInterval: 50 });
  const walletClient = createWalletClient({ chain: foundry, transport, pollingInterval: 50 });
  const chainId = await publicClient.getChainId();
  if (chainId !== LOCAL_CHAIN_ID)
    throw new Error(`expected a local anvil chain (id ${LOCAL_CHAIN_ID}) at ${rpcUrl}, found chain ${chainId}`);

  let deployment = readDeployment(deploymentFile);
  const present = async (address: Address) => ((await publicClient.getCode({ address })) ?? "0x") !== "0x";
  const reusable =
    deployment !== null &&
    deployment.chainId === chainId &&
    deployment.codeHash === codeHash &&
    (await present(deployment.escrow)) &&
    (await present(deployment.usdc));
  if (!reusable) {
    const deployed = await deployEscrowContracts({ publicClient, walletClient });
    deployment = {
      chainId,
      usdc: deployed.token,
      escrow: deployed.escrow,
      startBlock: String(deployed.blockNumber),
      codeHash,
    };
    writeFileSync(deploymentFile, `${JSON.stringify(deployment, null, 2)}\n`);
  }

  const { usdc, escrow } = deployment!;
  const balance = await publicClient.readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [renter.address],
  });
  if (balance < RENTER_FLOOR) {
    const hash = await walletClient.writeContract({
      account: admin,
      address: usdc,
      abi: TestUSDC.abi,
      functionName: "mint",
      args: [renter.address, RENTER_TOP_UP - balance],
    });
    await publicClient.waitForTransactionReceipt({ hash });
  }

  return {
    chainId,
    rpcUrl,
    usdc: getAddress(usdc),
    escrow: getAddress(escrow),
    startBlock: BigInt(deployment!.startBlock),
    quoteSignerKey: privateKeyOf(signer),
    operatorKey: privateKeyOf(operator),
    renterKey: privateKeyOf(renter),
    renter: renter.address,
    arbiterKey: privateKeyOf(arbiter),
    arbiter: arbiter.address,
    operator: operator.address,
    owner: owner.address,
    ownerKey: privateKeyOf(owner),
    treasury: treasury.address,
    deployed: !reusable,
  };
}
