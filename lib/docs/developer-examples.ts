import type { CodeExample } from "@/lib/docs/code-example";
import { RENTAL_CODE_PLACEHOLDER } from "@/lib/docs/renter-api-examples";

// The developer surfaces in the renters' docs: the official OpenAI clients pointed at the renter
// API (the rental code as the API key), and an MCP configuration for the usual assistants. The
// test beside this file runs the JavaScript examples against the real routes.
const MESSAGE = "Hello! What can you do?";

export function openAiExamples(origin: string): CodeExample[] {
  const api = `${origin.replace(/\/+$/, "")}/api/v1`;
  const code = RENTAL_CODE_PLACEHOLDER;
  return [
    {
      label: "JavaScript",
      code: `import OpenAI from "openai"; // npm install openai

const client = new OpenAI({ baseURL: "${api}", apiKey: "${code}" });
const completion = await client.chat.completions.create({
  model: "rented-agent", // any name: it is echoed back
  messages: [{ role: "user", content: "${MESSAGE}" }],
});
console.log(completion.choices[0].message.content);`,
    },
    {
      label: "JavaScript, streaming",
      code: `import OpenAI from "openai"; // npm install openai

const client = new OpenAI({ baseURL: "${api}", apiKey: "${code}" });
const stream = await client.chat.completions.create({
  model: "rented-agent",
  messages: [{ role: "user", content: "${MESSAGE}" }],
  stream: true,
});
for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? "");`,
    },
    {
      label: "Python",
      code: `from openai import OpenAI  # pip install openai

client = OpenAI(base_url="${api}", api_key="${code}")
completion = client.chat.completions.create(
    model="rented-agent",  # any name: it is echoed back
    messages=[{"role": "user", "content": "${MESSAGE}"}],
)
print(completion.choices[0].message.content)`,
    },
  ];
}

/** Where each assistant keeps its MCP servers, and the entry that adds the rented agent. */
export function mcpClientConfigs(origin: string): CodeExample[] {
  const url = `${origin.replace(/\/+$/, "")}/api/v1/mcp`;
  const code = RENTAL_CODE_PLACEHOLDER;
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return [
    {
      label: "Claude Code",
      code: `claude mcp add --transport http rented-agent ${url} --header "Authorization: Bearer ${code}"`,
    },
    {
      label: "Claude Desktop (claude_desktop_config.json, through mcp-remote)",
      code: json({
        mcpServers: {
          "rented-agent": { command: "npx", args: ["-y", "mcp-remote", url, "--header", `Authorization: Bearer ${code}`] },
        },
      }),
    },
    {
      label: "Cursor (~/.cursor/mcp.json)",
      code: json({ mcpServers: { "rented-agent": { url, headers: { Authorization: `Bearer ${code}` } } } }),
    },
    {
      label: "VS Code (.vscode/mcp.json)",
      code: json({
        inputs: [{ type: "promptString", id: "rental-code", description: "Your rental code", password: true }],
        // VS Code's own placeholder: it asks for the code once and keeps it in its secret storage.
        servers: { "rented-agent": { type: "http", url, headers: { Authorization: `Bearer ${"$"}{input:rental-code}` } } },
      }),
    },
  ];
}
