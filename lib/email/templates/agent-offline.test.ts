import { describe, expect, it } from "vitest";
import { agentOfflineEmail } from "@/lib/email/templates/agent-offline";
import { appUrl } from "@/lib/env";

const agent = { id: "6b1f0c1e-0000-4000-8000-000000000001", name: `<script>alert("x")</script> & 'Co'` };
const checkedAt = new Date("2026-11-21T10:15:42.000Z");

describe("agentOfflineEmail", () => {
  it("says which agent, what failed, what to do, and links the dashboard", () => {
    const email = agentOfflineEmail({
      agent: { ...agent, name: "Support Bot" },
      failure: { statusCode: 503, error: "HTTP 503" },
      checkedAt,
    });
    expect(email.subject).toBe('Your agent "Support Bot" is offline: its webhook failed a health check');
    expect(email.text).toContain('Your agent "Support Bot" failed its health check at 21 Nov 2026, 10:15 UTC');
    expect(email.text).toContain("What failed: Your webhook answered HTTP 503: an error in your agent's server.");
    expect(email.text).toContain("1. Look in your agent's logs for the error, fix it, then test again.");
    expect(email.text).toContain("Test connection");
    expect(email.text).toContain(`${appUrl()}/dashboard/agents/${agent.id}`);
    expect(email.html).toContain(`<a href="${appUrl()}/dashboard/agents/${agent.id}">`);
  });

  it("puts a network error or a redirect in words, with the recorded code for developers", () => {
    const network = agentOfflineEmail({
      agent,
      failure: { statusCode: null, error: "timeout: no complete reply within 10000 ms" },
      checkedAt,
    });
    expect(network.text).toContain("What failed: Your webhook did not answer within 10 seconds.");
    expect(network.text).toContain("Detail for developers: timeout: no complete reply within 10000 ms");
    const redirect = agentOfflineEmail({ agent, failure: { statusCode: 302, error: "HTTP 302" }, checkedAt });
    expect(redirect.text).toContain("redirect (HTTP 302); redirects are not followed");
    expect(redirect.text).not.toContain("Detail for developers");
  });

  it("escapes every interpolated value in the HTML", () => {
    const email = agentOfflineEmail({
      agent,
      failure: { statusCode: null, error: "unreachable: <b>EHOST</b>" },
      checkedAt,
    });
    expect(email.html).not.toContain("<script>");
    expect(email.html).not.toContain("<b>");
    expect(email.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Co&#39;");
    expect(email.html).toContain("unreachable: &lt;b&gt;EHOST&lt;/b&gt;");
    expect(email.text).toContain(agent.name); // plain text stays as written
  });
});
