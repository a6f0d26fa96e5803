import { availabilityTerms } from "@/lib/availability/availability-terms";
import { toAvailabilityResponse } from "@/lib/availability/to-availability-response";
import { chatCurl, statusCurl } from "@/lib/checkout/activation";
import type { CodeExample } from "@/lib/docs/code-example";

// The renter API's requests in curl, Python and JavaScript, for the renters' docs page. The
// rental code stays a placeholder the reader replaces; the host is the site's own.
export const RENTAL_CODE_PLACEHOLDER = "<RENTAL_CODE>";
const MESSAGE = "Hello! What can you do?";

export function renterApiExamples(origin: string): { chat: CodeExample[]; status: CodeExample[]; availability: CodeExample[] } {
  const api = `${origin.replace(/\/+$/, "")}/api/v1`;
  const code = RENTAL_CODE_PLACEHOLDER;
  return {
    chat: [
      { label: "curl", code: chatCurl(origin, code, MESSAGE) },
      {
        label: "Python",
        code: `import requests  # pip install requests

reply = requests.post(
    "${api}/chat",
    headers={"X-API-Key": "${code}"},
    json={"message": "${MESSAGE}"},
    timeout=35,  # the agent has 30 seconds to answer
)
body = reply.json()
if not reply.ok:
    raise SystemExit(body["error"])
print(body["response"])`,
      },
      {
        label: "JavaScript",
        code: `const reply = await fetch("${api}/chat", {
  method: "POST",
  headers: { "X-API-Key": "${code}", "Content-Type": "application/json" },
  body: JSON.stringify({ message: "${MESSAGE}" }),
});
const body = await reply.json();
if (!reply.ok) throw new Error(body.error);
console.log(body.response);`,
      },
    ],
    status: [
      { label: "curl", code: statusCurl(origin, code) },
      {
        label: "Python",
        code: `import requests  # pip install requests

reply = requests.get("${api}/status", headers={"X-API-Key": "${code}"}, timeout=10)
body = reply.json()
if not reply.ok:
    raise SystemExit(body["error"])
rental = body["rental"]
print(rental["status"], rental["time_remaining_seconds"], "seconds left")`,
      },
      {
        label: "JavaScript",
        code: `const reply = await fetch("${api}/status", { headers: { "X-API-Key": "${code}" } });
const body = await reply.json();
if (!reply.ok) throw new Error(body.error);
console.log(body.rental.status, body.rental.time_remaining_seconds, "seconds left");`,
      },
    ],
    availability: [
      { label: "curl", code: `curl '${api}/availability' -H 'X-API-Key: ${code}'` },
      {
        label: "Python",
        code: `import requests  # pip install requests

reply = requests.get("${api}/availability", headers={"X-API-Key": "${code}"}, timeout=10)
body = reply.json()
if not reply.ok:
    raise SystemExit(body["error"])
print(body["uptime_percent"], "% up,", body["minutes_down"], "minutes down,", body["refund_due_usdc"], "USDC due back")`,
      },
      {
        label: "JavaScript",
        code: `const reply = await fetch("${api}/availability", { headers: { "X-API-Key": "${code}" } });
const body = await reply.json();
if (!reply.ok) throw new Error(body.error);
console.log(body.uptime_percent, "% up,", body.minutes_down, "minutes down,", body.refund_due_usdc, "USDC due back");`,
      },
    ],
  };
}

const SAMPLE_RENTAL_ID = "3f9a2c1b-77d0-4a43-9c6e-0b1d2e3f4a5b";

// The status sample's month-long rental a day in: 3 minutes were down, within the 432 a 99 %
// guarantee allows over 43,200 minutes, so nothing is due back (yet). Built by the rule itself.
const SAMPLE_STARTS_AT = new Date("2026-11-21T10:00:00.000Z");
const SAMPLE_AVAILABILITY = toAvailabilityResponse(
  SAMPLE_RENTAL_ID,
  availabilityTerms(
    {
      startsAt: SAMPLE_STARTS_AT,
      endsAt: new Date("2026-12-21T10:00:00.000Z"),
      priceMicro: 100_000_000n,
      guaranteePermille: 990,
      minutesMeasured: [0, 1440],
      minutesDown: [247, 250], // 14:07 to 14:10 on the first day
    },
    new Date("2026-11-22T10:00:00.000Z"),
  ),
);

/** The 200 answers, as the renter API sends them (the test holds them to its response schemas). */
export const RENTER_API_REPLIES = {
  chat: {
    success: true,
    agent: "Echo Agent",
    response: `Echo: ${MESSAGE}`,
    rental: { id: SAMPLE_RENTAL_ID, ends_at: "2026-12-21T10:00:00.000Z" },
  },
  status: {
    rental: {
      id: SAMPLE_RENTAL_ID,
      status: "active",
      starts_at: "2026-11-21T10:00:00.000Z",
      ends_at: "2026-12-21T10:00:00.000Z",
      duration_type: "month",
      channel: "API",
      time_remaining_seconds: 2591940,
    },
    agent: { id: "6b1f0c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e", name: "Echo Agent", description: "Replies with whatever you send it." },
  },
  availability: SAMPLE_AVAILABILITY,
};

export function renterApiReplies(): { chat: CodeExample; status: CodeExample; availability: CodeExample } {
  return {
    chat: { label: "The answer (200)", code: JSON.stringify(RENTER_API_REPLIES.chat, null, 2) },
    status: { label: "The answer (200)", code: JSON.stringify(RENTER_API_REPLIES.status, null, 2) },
    availability: { label: "The answer (200)", code: JSON.stringify(RENTER_API_REPLIES.availability, null, 2) },
  };
}
