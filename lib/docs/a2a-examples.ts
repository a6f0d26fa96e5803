import type { CodeExample } from "@/lib/docs/code-example";
import { AGENT_ID_PLACEHOLDER } from "@/lib/docs/owner-api-examples";

// The A2A page's examples (/docs/a2a, docs/a2a.md): the marketplace's card with curl, and a client
// on the official @a2a-js/sdk that reads a listing's card and sends it a message with a rental
// code. Built from the site's origin; the agent's id stays a placeholder. The test beside this file
// type-checks the client (tsc, strict) and runs it (tsx) against the real routes.
const base = (origin: string) => origin.replace(/\/+$/, "");

export function marketplaceCardCurl(origin: string): CodeExample {
  return { label: "curl: the marketplace's agent card", code: `curl -s '${base(origin)}/.well-known/agent-card.json'` };
}

export function a2aClient(origin: string): CodeExample {
  return {
    label: "TypeScript",
    code: `// npm install @a2a-js/sdk; run with RENTAL_CODE=<your code> npx tsx client.ts
import { Role, type Task } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";

// Reads the agent card at ${base(origin)}/a2a/${AGENT_ID_PLACEHOLDER}/.well-known/agent-card.json
const agent = await new ClientFactory().createFromUrl("${base(origin)}/a2a/${AGENT_ID_PLACEHOLDER}/");
const text = { content: { $case: "text" as const, value: "Hello! What can you do?" }, mediaType: "text/plain", filename: "", metadata: {} };
const message = { messageId: crypto.randomUUID(), contextId: "", taskId: "", role: Role.ROLE_USER, parts: [text], metadata: {}, extensions: [], referenceTaskIds: [] };
const task = (await agent.sendMessage(
  { message, configuration: undefined, metadata: {}, tenant: "" },
  { serviceParameters: { Authorization: \`Bearer \${process.env.RENTAL_CODE}\` } }, // your rental code
)) as Task;
const reply = task.artifacts[0]?.parts[0]?.content; // the agent's answer: text, or data (JSON)
console.log(task.status?.message?.parts[0]?.content?.value ?? reply?.value);`,
  };
}
