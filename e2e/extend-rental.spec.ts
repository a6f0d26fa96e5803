// Extending a rental (issue 29, docs/extend.md): rent an hour, extend it by an hour from the rental
// page in one wallet transaction, and keep chatting with the same code past the first end. The
// owner's webhook is told (rental.extended), and the escrow holds both prices.
import { expect, test } from "@playwright/test";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { EchoAgent } from "../scripts/echo-agent";
import { afterRentalsEnd, baseUrl, keys, listAgentWithCli, operatorCli, sql, usdcBalance } from "./stack";
import { installTestWallet } from "./test-wallet";

// One owner per test file: an owner account's wallet is unique.
const ownerWallet = privateKeyToAccount(`0x${"26".repeat(32)}` as Hex).address;
const USDC = 1_000_000n;
let echo: EchoAgent | undefined;

test.afterAll(async () => {
  await echo?.close();
});

test("rent an hour, extend it by an hour from the rental page, keep chatting with the same code past the first end", async ({
  browser,
}) => {
  const listed = await listAgentWithCli(ownerWallet, ["--name", "Extend Me", "--price-hour", "3"]);
  echo = listed.echo;
  const rental = await operatorCli(["rental:checkout", "--agent", listed.agentId, "--duration", "hour"], {
    RENTER_PRIVATE_KEY: keys.renter(),
  });
  const rentalId = String(rental.id);
  const code = String(rental.code);
  const [before] = await sql<{ ends_at: Date; session_key: string }>("SELECT ends_at, session_key FROM rentals WHERE id = $1", [rentalId]);
  const renterWallet = privateKeyToAccount(keys.renter()).address;
  const paidBefore = await usdcBalance(renterWallet);

  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  await installTestWallet(page, keys.renter());
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in with wallet" }).click();
  await page.waitForURL("**/dashboard");

  // From the rental's page: Extend → one hour (the default), the new end and the total shown.
  await page.goto(`/dashboard/rentals/${rentalId}`);
  await page.getByRole("link", { name: "Extend", exact: true }).click();
  await page.waitForURL(`**/dashboard/rentals/${rentalId}/extend`);
  await expect(page.getByText("Extend by 1 hour: 4.00 USDC")).toBeVisible();
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await page.getByRole("button", { name: "Extend the rental" }).click();
  await expect(page.getByText(/^Extended: the rental now ends /)).toBeVisible({ timeout: 60_000 });

  // One transaction: 3 USDC for the hour and the 1 USDC fee; the end moved by an hour, the code
  // and the sessionKey did not.
  expect(paidBefore - (await usdcBalance(renterWallet))).toBe(4n * USDC);
  const [after] = await sql<{ ends_at: Date; session_key: string; price_micro_usdc: string; fee_micro_usdc: string }>(
    "SELECT ends_at, session_key, price_micro_usdc::text, fee_micro_usdc::text FROM rentals WHERE id = $1",
    [rentalId],
  );
  expect(after.ends_at.getTime() - before.ends_at.getTime()).toBe(3_600_000);
  expect(after.session_key).toBe(before.session_key);
  expect([after.price_micro_usdc, after.fee_micro_usdc]).toEqual([String(6n * USDC), String(2n * USDC)]);

  // An hour and 5 seconds later (5 s after the first end), the same code still chats.
  await afterRentalsEnd(listed.agentId, 3_600 + 5, async () => {
    const res = await fetch(`${baseUrl()}/api/v1/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": code },
      body: JSON.stringify({ message: "Still there?" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ response: "Echo: Still there?" });
    const status = await (await fetch(`${baseUrl()}/api/v1/status`, { headers: { "x-api-key": code } })).json();
    expect(status.rental.status).toBe("active");
  });
  await context.close();
});
