// /docs/webhooks — the contract with an owner's webhook: what arrives, what to answer, a whole
// webhook in Node.js and Python, rental events (rental.extended) and health checks.
import type { Metadata } from "next";
import Link from "next/link";
import { serviceLimits } from "@/lib/docs/service-limits";
import {
  healthCheckRequestExamples,
  messageRequestExamples,
  minimalWebhooks,
  paidMessageRequestExample,
  replyExamples,
  signedWebhooks,
} from "@/lib/docs/webhook-examples";
import { CodeBlock } from "../_components/code-block";
import { DocsPage } from "../_components/docs-page";

export const metadata: Metadata = { title: "Webhook contract" };

export default function WebhookDocsPage() {
  const limits = serviceLimits();
  const [request, requestCurl] = messageRequestExamples();
  return (
    <DocsPage current="/docs/webhooks">
      <h1>The webhook contract</h1>
      <p className="lead">
        Your agent runs behind a webhook: a URL that accepts POST. The service sends it every renter&apos;s message, a health check every 15
        minutes and one right before each renter pays, always with your token, and passes your answer back to the renter.
      </p>

      <section aria-labelledby="message-heading">
        <h2 id="message-heading">A renter&apos;s message</h2>
        <p>Each message, from the API or a chat app, arrives as one POST with a JSON body:</p>
        <CodeBlock example={request} copyLabel="Copy the example request" />
        <dl>
          <dt>
            <code>Authorization</code>
          </dt>
          <dd>
            <code>Bearer</code> and the token you saved with the webhook. Refuse anything else with 401.
          </dd>
          <dt>
            <code>X-Agent-Name</code>
          </dt>
          <dd>The listing&apos;s name, so one runtime can serve several listings (see below for names beyond plain ASCII).</dd>
          <dt>
            <code>X-Rental-Ref</code>, <code>rental</code>
          </dt>
          <dd>
            The rental the message belongs to (<code>ref</code>, the same as <code>X-Rental-Ref</code>: <code>rr_</code> and 32 random
            characters, the same for the whole rental), when it ends and for how long it was bought. It is the rental&apos;s reference, not
            its id: the renter&apos;s rental code is the first characters of the id and works as their password, so it is never sent to you.
            The reference is what the service shows you in your dashboard, your e-mails and disputes, and what support asks for.
          </dd>
          <dt>
            <code>agentId</code>
          </dt>
          <dd>The listing&apos;s id: it never changes, while the name can.</dd>
          <dt>
            <code>sessionKey</code>
          </dt>
          <dd>
            The same on every message of one rental and chat user: keep the conversation&apos;s state under it. It holds nothing of the
            rental code.
          </dd>
          <dt>
            <code>channel</code>
          </dt>
          <dd>
            Where the renter writes from: <code>API</code>, <code>Telegram</code>, <code>Discord</code>, <code>Slack</code>,{" "}
            <code>WhatsApp</code>, <code>Teams</code>, <code>GoogleChat</code> (Google Chat: the value has no space), or <code>A2A</code>{" "}
            (another AI agent calling the listing over the <Link href="/docs/a2a">Agent2Agent protocol</Link> with the rental code; its{" "}
            <code>sessionKey</code> is one per A2A conversation).
          </dd>
          <dt>
            <code>trial</code>
          </dt>
          <dd>
            <code>true</code>, only on the messages of a free trial you offer: you pay for it and nobody paid you. Paid rentals&apos;
            messages have no <code>trial</code> field.
          </dd>
        </dl>
        <p>To try your webhook before connecting it, send it the same request yourself:</p>
        <CodeBlock example={requestCurl} copyLabel="Copy the example request as a curl command" />
      </section>

      <section aria-labelledby="reply-heading">
        <h2 id="reply-heading">Your answer</h2>
        <p>
          Answer with a 2xx. The body goes to the renter unchanged: with a JSON content type it is passed on as that value (a string, or an
          object for richer content), with any other content type as text.
        </p>
        {replyExamples().map((example) => (
          <CodeBlock key={example.label} example={example} copyLabel={`Copy the example answer: ${example.label}`} />
        ))}
        <ul>
          <li>Answer within {limits.replyTimeout}; after that the renter is told the agent did not answer. Messages are not retried.</li>
          <li>
            Calls that follow each other within a second reuse their connection, so keep your server&apos;s idle timeout above a second. If
            a reused connection closes before your server answers, the message is sent once more on a new one with the same{" "}
            <code>webhook-id</code>: treat a repeated <code>webhook-id</code> as the same message.
          </li>
          <li>Keep an answer under 1 MiB.</li>
          <li>Any other status, a redirect included (redirects are not followed), reaches the renter as an error of the agent.</li>
        </ul>
      </section>

      <section aria-labelledby="paid-heading">
        <h2 id="paid-heading">An answer someone paid for</h2>
        <p>
          When your listing has a price per message, scripts and AI agents can also buy single answers without renting, paying for each one
          in USDC (<Link href="/docs/renters#paid-heading">how they pay</Link>). Such a message arrives the same way, with three
          differences:
        </p>
        <CodeBlock example={paidMessageRequestExample()} copyLabel="Copy the example paid message" />
        <dl>
          <dt>
            <code>rental</code>, <code>payment</code>
          </dt>
          <dd>
            <code>rental</code> is <code>null</code>. <code>payment.ref</code> (<code>mp_</code> and 32 characters) names this one paid
            answer, and <code>payment.payer</code> is the wallet that pays for it.
          </dd>
          <dt>
            <code>X-Payment-Ref</code>
          </dt>
          <dd>
            The same as <code>payment.ref</code>, sent instead of <code>X-Rental-Ref</code>.
          </dd>
          <dt>
            <code>sessionKey</code>
          </dt>
          <dd>
            <code>payer_</code> and 32 characters: the same on every message that wallet buys from this agent, so you can keep its
            conversation as you do a rental&apos;s.
          </dd>
        </dl>
        <p>
          Answer as you would a renter. A 2xx within {limits.replyTimeout} sells the answer: the payment is collected and its price is
          credited to you in the escrow, to withdraw from your dashboard&apos;s Payouts page. Any other answer, or none in time, sells
          nothing: the caller gets the error and pays nothing, and you are not paid. Messages are not retried.
        </p>
      </section>

      <section aria-labelledby="name-heading">
        <h2 id="name-heading">Names beyond plain ASCII</h2>
        <p>
          A header cannot carry every character. A name of plain ASCII is sent as it is. Any other name (an accent, a long dash, an emoji)
          is sent percent-encoded, as JavaScript&apos;s <code>encodeURIComponent</code> writes it, and the header{" "}
          <code>X-Agent-Name-Encoding: percent</code> says so. Decode the name only then: <code>Bot%20%E2%80%94%2024%2F7</code> is{" "}
          <code>Bot — 24/7</code>.
        </p>
      </section>

      <section aria-labelledby="minimal-heading">
        <h2 id="minimal-heading">A whole webhook</h2>
        <p>
          Both need nothing beyond the language&apos;s standard library. They check the token in constant time, answer health checks with a
          2xx and echo each message; put your agent where the reply is made. Run one behind https and connect its URL.
        </p>
        {minimalWebhooks().map((example) => (
          <CodeBlock key={example.label} example={example} copyLabel={`Copy the ${example.label} webhook`} />
        ))}
      </section>

      <section aria-labelledby="signatures">
        <h2 id="signatures">Signatures</h2>
        <p>
          Every call to your webhook, messages and health checks alike, is also signed the{" "}
          <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> way, so you can check it really comes from this service and was
          not changed or replayed: <code>webhook-id</code> (unique per call), <code>webhook-timestamp</code> (seconds) and{" "}
          <code>webhook-signature</code> (<code>v1,</code> and a base64 HMAC-SHA256 of <code>id.timestamp.body</code>). The key is your
          listing&apos;s signing secret (<code>whsec_…</code>), shown once when you first connect the webhook, in the dashboard or through
          the owner API; rotate it on the listing&apos;s page if it is lost. The Bearer token is still sent: check either, or both.
        </p>
        <p>
          The <code>standardwebhooks</code> package does the check in a line; give it the raw body, before any parsing:
        </p>
        {signedWebhooks().map((example) => (
          <CodeBlock key={example.label} example={example} copyLabel={`Copy the ${example.label} webhook that verifies signatures`} />
        ))}
      </section>

      <section aria-labelledby="rental-events">
        <h2 id="rental-events">Rental events</h2>
        <p>
          When a renter extends a running rental, your webhook receives one call, with the same token, <code>X-Agent-Name</code>,{" "}
          <code>X-Rental-Ref</code> and signature as a message, and a body of type <code>rental.extended</code> that carries the new end.
          The reference and the <code>sessionKey</code> stay the same: keep the conversation going until the new end.
        </p>
        <CodeBlock
          example={{
            label: "rental.extended",
            code: JSON.stringify(
              { type: "rental.extended", rental: { ref: "rr_5d0e8a47c21f4b9e8a3c6f1d0b7e2a94", ends_at: "2026-12-21T11:00:00.000Z" } },
              null,
              2,
            ),
          }}
          copyLabel="Copy the rental.extended body"
        />
        <ul>
          <li>Answer with any 2xx; the body is ignored.</li>
          <li>
            It is sent once and not retried: a failure changes nothing, the renter has paid and the rental is extended all the same. Answer
            any <code>type</code> you do not know with a 2xx and ignore it.
          </li>
          <li>
            The listing&apos;s delivery log in your dashboard shows each such call as &ldquo;Rental extended&rdquo;, with how your webhook
            answered.
          </li>
        </ul>
      </section>

      <section aria-labelledby="health-checks">
        <h2 id="health-checks">Health checks</h2>
        <p>
          Every 15 minutes, whenever you press <strong>Test connection</strong>, and right before a renter pays for your agent (the checkout
          asks for its price), the service sends a health check: the same token, <code>X-Health-Check: true</code>, and a body of type{" "}
          <code>health_check</code>.
        </p>
        {healthCheckRequestExamples().map((example) => (
          <CodeBlock key={example.label} example={example} copyLabel={`Copy ${example.label.toLowerCase()}`} />
        ))}
        <ul>
          <li>
            Any 2xx within {limits.healthCheckTimeout} passes
            {limits.checkoutCheckTimeout !== limits.healthCheckTimeout &&
              ` (${limits.checkoutCheckTimeout} for the check before a checkout)`}
            ; the body is ignored. Answer it cheaply, without calling a model, but check the token so strangers cannot probe your agent.
          </li>
          <li>
            A check that fails takes the listing offline: no new rentals, and an e-mail to you saying what failed. The next check that
            passes brings it back, with an e-mail too. When it was the check before a checkout, the renter is told your agent is not
            answering right now, and nothing is charged.
          </li>
          <li>
            Every check is recorded and shown in your delivery log. Your tests and the checks before a checkout do not count in your uptime.
          </li>
        </ul>
      </section>

      <section aria-labelledby="where-heading">
        <h2 id="where-heading">Where a webhook may point</h2>
        <p>
          Only to a public address over https: the service refuses private, local and cloud-internal addresses, and a name that does not
          resolve to a public address reads as <code>blocked</code> in the test&apos;s result. See{" "}
          <Link href="/docs/owners#connect-heading">connecting your agent</Link> for the steps in the dashboard.
        </p>
      </section>
    </DocsPage>
  );
}
