// A2A against the running server (`npm start`), with the official @a2a-js/sdk client as an
// orchestrator uses it: the marketplace's card, its find-agents skill, the found listing's card,
// a message with a rental code answered by the echo agent as the task's artifact, a streamed one,
// and a wrong code raised by the SDK as an A2A error. No browser: Node code in a Playwright test.
import { randomBytes, randomUUID } from "node:crypto";
import { type Message, Role, type Task, TaskState } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import { A2AError } from "@a2a-js/sdk/errors";
import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { baseUrl, listAgentWithCli, operatorCli } from "./stack";

const WORD = `heliograph${randomBytes(3).toString("hex")}`;
let agentId: string;
let code: string;
let close: (() => Promise<void>) | undefined;

const message = (text: string): Message => ({
  messageId: randomUUID(),
  contextId: "",
  taskId: "",
  role: Role.ROLE_USER,
  parts: [{ content: { $case: "text", value: text }, mediaType: "text/plain", filename: "", metadata: {} }],
  metadata: {},
  extensions: [],
  referenceTaskIds: [],
});
const send = (text: string) => ({ message: message(text), configuration: undefined, metadata: {}, tenant: "" });
const withCode = (rentalCode: string) => ({ serviceParameters: { Authorization: `Bearer ${rentalCode}` } });

test.beforeAll(async () => {
  const payout = privateKeyToAccount(generatePrivateKey()).address;
  const listed = await listAgentWithCli(payout, ["--name", `Echo ${WORD}`, "--price-day", "5"]);
  agentId = listed.agentId;
  close = () => listed.echo.close();
  code = String((await operatorCli(["rental:create", "--agent", agentId, "--duration", "day"], { NODE_ENV: "test" })).code);
});

test.afterAll(async () => close?.());

test("an A2A orchestrator finds a listing, reads its card and talks to it with a rental code", async () => {
  const factory = new ClientFactory();

  // The marketplace's card, and its find-agents skill without a credential.
  const marketplace = await factory.createFromUrl(`${baseUrl()}/`);
  const card = await marketplace.getAgentCard();
  expect(card.skills.map((s) => s.id)).toEqual(["find-agents"]);
  const found = (await marketplace.sendMessage(send(WORD))) as Message;
  const data = found.parts.find((p) => p.content?.$case === "data")?.content?.value as {
    listings: { agentId: string; card_url: string }[];
  };
  expect(data.listings.map((l) => l.agentId)).toEqual([agentId]);
  const cardUrl = data.listings[0].card_url;
  expect(cardUrl).toBe(`${baseUrl()}/a2a/${agentId}/.well-known/agent-card.json`);

  // The listing's card, as served: edge-cached for a minute.
  const raw = await fetch(cardUrl, { headers: { "A2A-Version": "1.0" } });
  expect(raw.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=60");
  const agent = await factory.createFromUrl(cardUrl.replace(/\.well-known\/agent-card\.json$/, ""));
  expect((await agent.getAgentCard()).name).toBe(`Echo ${WORD}`);

  // A message with the rental code: the echo agent's answer as the task's artifact.
  const task = (await agent.sendMessage(send("hello over A2A"), withCode(code))) as Task;
  expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  expect(task.artifacts[0].parts[0].content).toEqual({ $case: "text", value: "Echo: hello over A2A" });

  // Streamed: the task, the artifact, the completion.
  const events: string[] = [];
  for await (const event of agent.sendMessageStream(send("streamed"), withCode(code))) {
    events.push(event.payload?.$case ?? "?");
    if (event.payload?.$case === "artifactUpdate") {
      expect(event.payload.value.artifact?.parts[0].content).toEqual({ $case: "text", value: "Echo: streamed" });
    }
  }
  expect(events).toEqual(["task", "artifactUpdate", "statusUpdate"]);

  // The task read back by the rental that made it.
  expect((await agent.getTask({ id: task.id, historyLength: undefined, tenant: "" }, withCode(code))).status?.state).toBe(
    TaskState.TASK_STATE_COMPLETED,
  );

  // A wrong code: the SDK raises the A2A error the endpoint answered (HTTP 401, a JSON-RPC error).
  const refused = agent.sendMessage(send("hello"), withCode("deadbeef"));
  await expect(refused).rejects.toBeInstanceOf(A2AError);
  await expect(refused).rejects.toThrow(/Invalid rental code/);
});
