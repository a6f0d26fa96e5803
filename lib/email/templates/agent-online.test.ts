import { describe, expect, it } from "vitest";
import { agentOnlineEmail } from "@/lib/email/templates/agent-online";
import { appUrl } from "@/lib/env";

const id = "6b1f0c1e-0000-4000-8000-000000000002";
const checkedAt = new Date("2026-11-21T10:30:05.000Z");

describe("agentOnlineEmail", () => {
  it("says which agent recovered, with the check that passed and the dashboard link", () => {
    const email = agentOnlineEmail({
      agent: { id, name: "Support Bot" },
      check: { statusCode: 200, latencyMs: 87 },
      checkedAt,
    });
    expect(email.subject).toBe('Your agent "Support Bot" is back online');
    expect(email.text).toContain("passed its health check at 21 Nov 2026, 10:30 UTC (HTTP 200 in 87 ms)");
    expect(email.text).toContain(`Dashboard: ${appUrl()}/dashboard/agents/${id}`);
  });

  it("escapes every interpolated value in the HTML", () => {
    const name = `<img src=x onerror="alert(1)"> & co`;
    const email = agentOnlineEmail({ agent: { id, name }, check: { statusCode: 204, latencyMs: 3 }, checkedAt });
    expect(email.html).not.toContain("<img");
    expect(email.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; co");
  });
});
