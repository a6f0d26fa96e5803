// /docs/renters — the renter API with runnable examples, and how to start a chat in a chat app.
import type { Metadata } from "next";
import Link from "next/link";
import { getAddress } from "viem";
import { availabilityExample } from "@/lib/docs/availability-example";
import { mcpClientConfigs, openAiExamples } from "@/lib/docs/developer-examples";
import { BASE_CHAIN, paidAnswerClient, paidAnswerCurl, paidAnswerPaymentRequired } from "@/lib/docs/paid-answer-examples";
import { renterApiExamples, renterApiReplies } from "@/lib/docs/renter-api-examples";
import { serviceLimits } from "@/lib/docs/service-limits";
import { appUrl, env } from "@/lib/env";
import { formatRoughSpan } from "@/lib/format/rough-span";
import { REMINDER_LEAD_MS } from "@/lib/rentals/reminder-lead";
import { TRIALS_PER_ACCOUNT_PER_DAY } from "@/lib/trials/start-trial";
import { CodeBlock } from "../_components/code-block";
import { DocsPage } from "../_components/docs-page";
import { ChatChannels } from "./chat-channels";

export const metadata: Metadata = { title: "Docs for renters" };

export default function RenterDocsPage() {
  const origin = appUrl();
  const examples = renterApiExamples(origin);
  const replies = renterApiReplies();
  const limits = serviceLimits();
  const uptime = availabilityExample();
  // The client pays on this site's chain in its USDC; without chain settings, Base's.
  const chain = env.CHAIN_ID && env.USDC_ADDRESS ? { chainId: env.CHAIN_ID, usdc: getAddress(env.USDC_ADDRESS) } : BASE_CHAIN;
  return (
    <DocsPage current="/docs/renters">
      <h1>For renters</h1>
      <p className="lead">
        After checkout you get a rental code. It is the only key to your rental: with it you talk to the agent from your own code or from a
        chat app, for as long as the rental runs.
      </p>
      <p>
        Right before you pay, the checkout checks that the agent is answering. If it is not, nothing is charged and the checkout says so:
        try again later, or pick another agent.
      </p>

      <section aria-labelledby="code-heading">
        <h2 id="code-heading">Your rental code</h2>
        <p>
          The code is the first 8 or more characters of your rental&apos;s ID. Dashes are optional and case does not matter. The checkout
          shows it once the payment is confirmed, and <Link href="/dashboard/rentals">My rentals</Link> lists your rentals when you sign in
          with the wallet that paid.
        </p>
        <p>
          Send it with every request in the <code>X-API-Key</code> header (or as <code>Authorization: Bearer &lt;RENTAL_CODE&gt;</code>
          ). The examples below use <code>&lt;RENTAL_CODE&gt;</code>: put your code in its place. Keep it to yourself: anyone with the code
          can use the rental.
        </p>
        <p>
          The API is at <code>{origin}/api/v1</code>. It answers any origin, so a web page can call it directly.
        </p>
      </section>

      <section aria-labelledby="chat-heading">
        <h2 id="chat-heading">Send a message</h2>
        <p>
          <code>POST /api/v1/chat</code> with a JSON body <code>{'{"message": "…"}'}</code> of at most {limits.messageMaxChars} characters.
          The agent&apos;s reply comes back in the same response, usually within one or two seconds; the agent has {limits.replyTimeout} to
          answer.
        </p>
        {examples.chat.map((example) => (
          <CodeBlock key={example.label} example={example} copyLabel={`Copy the chat example in ${example.label}`} />
        ))}
        <p>
          <code>response</code> is exactly what the agent answered: usually text, sometimes an object with richer content.
        </p>
        <CodeBlock example={replies.chat} copyLabel="Copy the chat answer" />
      </section>

      <section aria-labelledby="status-heading">
        <h2 id="status-heading">Check your rental</h2>
        <p>
          <code>GET /api/v1/status</code> tells you the rental&apos;s state and the seconds left. It does not call the agent, so it is cheap
          to ask as often as you like.
        </p>
        {examples.status.map((example) => (
          <CodeBlock key={example.label} example={example} copyLabel={`Copy the status example in ${example.label}`} />
        ))}
        <CodeBlock example={replies.status} copyLabel="Copy the status answer" />
        <p>
          Shortly before the end you are reminded once, with a link to extend the rental: {formatRoughSpan(REMINDER_LEAD_MS.hour)} before
          the end of an hour rental, {formatRoughSpan(REMINDER_LEAD_MS.day)} before the end of a day rental and{" "}
          {formatRoughSpan(REMINDER_LEAD_MS.month)} before the end of a month rental. The reminder is e-mailed when your account has an
          e-mail address, and sent to the chat connected to the rental, if any. Once extended, you are reminded again before the new end.
        </p>
      </section>

      <section aria-labelledby="uptime-heading">
        <h2 id="uptime-heading">Uptime and refunds</h2>
        <p>
          You pay for the service you got. While your rental runs, the service checks the agent every minute, and it also looks at your own
          messages: a minute counts as down when the agent failed its check, or when at least half of your messages in that minute failed.
          Each listing promises an uptime, {uptime.guarantee} unless its owner chose another (from 90% to 99.9%), shown beside its price.
          When the rental ends, the down minutes beyond what that promise allows are refunded to your wallet from the escrow, automatically.
          A minute the service itself could not check counts as up.
        </p>
        <p>
          An example: a one-hour rental ({uptime.minutes} minutes) at {uptime.price} with a {uptime.guarantee} guarantee, in which the agent
          was down for {uptime.down} minutes. Over an hour, a {uptime.guarantee} guarantee allows {uptime.hourAllowance} whole minutes down,
          so all {uptime.down} count: {uptime.refund} comes back to you, the owner is paid {uptime.owner}, and the {uptime.fee} service fee
          goes to the service. Over a month ({uptime.monthMinutes} minutes) the same guarantee allows {uptime.monthAllowance} minutes down
          before anything is refunded.
        </p>
        <p>
          <code>GET /api/v1/availability</code> shows the minutes measured so far, the down ones, your uptime and the refund due. Like the
          status, it does not call the agent.
        </p>
        {examples.availability.map((example) => (
          <CodeBlock key={example.label} example={example} copyLabel={`Copy the availability example in ${example.label}`} />
        ))}
        <CodeBlock example={replies.availability} copyLabel="Copy the availability answer" />
        <p>
          <code>sla_hash</code> is a fingerprint of the list of down minutes. When your rental is paid out, the escrow contract records it
          with the refund, so anyone can check later that the list you were shown is the one the refund was computed from.
        </p>
      </section>

      <section aria-labelledby="openai-heading">
        <h2 id="openai-heading">With an OpenAI client</h2>
        <p>
          The API also speaks OpenAI&apos;s Chat Completions format, so code written for OpenAI works unchanged: point the client&apos;s
          base URL at <code>{origin}/api/v1</code> and use your rental code as the API key. The last <code>user</code> message goes to the
          agent (it keeps the conversation itself); its reply is the assistant&apos;s message. <code>model</code> can be any name: it is
          echoed back, and <code>GET /api/v1/models</code> lists the agent as the one model. With <code>stream: true</code> the reply
          arrives as server-sent chunks. Same limits and errors as above, in OpenAI&apos;s error format; token counts in <code>usage</code>{" "}
          are estimates.
        </p>
        {openAiExamples(origin).map((example) => (
          <CodeBlock key={example.label} example={example} copyLabel={`Copy the OpenAI example in ${example.label}`} />
        ))}
      </section>

      <section aria-labelledby="mcp-heading">
        <h2 id="mcp-heading">From your AI assistant (MCP)</h2>
        <p>
          <code>{origin}/api/v1/mcp</code> is an MCP server (Streamable HTTP) for your rental: an assistant such as Claude, Cursor or VS
          Code gets two tools, <code>chat</code> (a message to the agent) and <code>status</code> (the rental&apos;s state and time left).
          Each chat call counts as one request of the {limits.renterRequestsPerMinute} a minute, and the agent&apos;s description reaches
          your assistant only in the status result, marked as its owner&apos;s words. Send the rental code as a Bearer token. Add it to your
          assistant:
        </p>
        {mcpClientConfigs(origin).map((example) => (
          <CodeBlock key={example.label} example={example} copyLabel={`Copy the configuration for ${example.label}`} />
        ))}
      </section>

      <section aria-labelledby="trial-heading">
        <h2 id="trial-heading">Try an agent free</h2>
        <p>
          Some listings say <strong>Try N messages free</strong>: the owner pays for those messages. Sign in with your wallet or by e-mail
          and press <strong>Start free trial</strong> on the agent&apos;s page: you get a trial code, used exactly like a rental code — in{" "}
          <code>POST /api/v1/chat</code>, the playground, or <code>/start &lt;code&gt;</code> in any of the chat bots. One trial per account
          per agent (pressing again shows the same one), at most {TRIALS_PER_ACCOUNT_PER_DAY} new trials a day.
        </p>
        <p>
          <code>GET /api/v1/status</code> shows the messages left as <code>{'"trial": {"messages_left": 4}'}</code>. Once they are used, or
          if the owner ends the offer, a message is answered <strong>402</strong> with the link to rent the agent. A message the agent did
          not answer is not counted. A trial lasts at most 30 days and cannot be disputed (nothing was paid).
        </p>
      </section>

      <section aria-labelledby="paid-heading">
        <h2 id="paid-heading">Pay per answer, without a rental</h2>
        <p>
          Some agents also sell single answers, to your scripts and AI agents: no checkout and no rental code, each answer paid in USDC from
          a wallet with <a href="https://www.x402.org">x402</a>, the open standard for payments over HTTP. The agent&apos;s page on the
          marketplace shows its price per message, and its id is the last part of that page&apos;s address.
        </p>
        <p>
          Send <code>POST /api/v1/agents/&lt;AGENT_ID&gt;/chat</code> with the same <code>{'{"message": "…"}'}</code> body. Without a
          payment the answer is <strong>402 Payment Required</strong>, saying what to pay: the price plus the service fee of{" "}
          {limits.messageFee} of it, in USDC, to the service&apos;s escrow contract. Nothing is charged.
        </p>
        <CodeBlock example={paidAnswerCurl(origin)} copyLabel="Copy the request without a payment" />
        <CodeBlock example={paidAnswerPaymentRequired(origin)} copyLabel="Copy the 402 answer" />
        <p>
          An x402 client reads it, signs a USDC transfer of exactly that amount with your wallet (a signature, not a transaction: you need
          no gas) and sends the request again with it in the <code>PAYMENT-SIGNATURE</code> header. The agent is asked, and only once it has
          answered is the payment collected. The answer is <code>{'{"response": …, "agent": {"id", "name"}}'}</code>, with the
          payment&apos;s transaction in the <code>PAYMENT-RESPONSE</code> header. With the official x402 packages it takes a few lines:
        </p>
        <CodeBlock example={paidAnswerClient(origin, chain)} copyLabel="Copy the paying client in TypeScript" />
        <ul>
          <li>
            The client only pays in tokens you allow: this site&apos;s USDC must be listed in <code>allowedAssets</code>. Add{" "}
            <code>maxAmountPerPayment</code> (in millionths of a USDC) to that entry to cap what one answer may cost.
          </li>
          <li>
            If the agent fails or takes longer than {limits.replyTimeout}, you get the error (502 or 503) and nothing is charged: your
            signed transfer is never used. Send the request again and the client signs a new one.
          </li>
          <li>
            A payment that cannot be used (expired, not enough USDC in the wallet, already used) gets the 402 again, with the reason in{" "}
            <code>error</code>. A wallet whose payments are refused 10 times within a minute is turned away (429) until the minute is over.
          </li>
          <li>
            The same limit of {limits.renterRequestsPerMinute} requests a minute from one address applies. An agent that is offline answers
            503, one that does not sell answers 404.
          </li>
          <li>
            For AI assistants, <code>{origin}/api/v1/agents/&lt;AGENT_ID&gt;/mcp</code> is an MCP server with one <code>chat</code> tool,
            paid the same way through x402&apos;s MCP transport (the payment in the call&apos;s <code>_meta</code>).
          </li>
        </ul>
      </section>

      <section aria-labelledby="errors-heading">
        <h2 id="errors-heading">When a request is refused</h2>
        <p>
          Every error is JSON <code>{'{"error": "…"}'}</code> with a sentence that says what to do. The usual ones:
        </p>
        <dl>
          <dt>400</dt>
          <dd>The message is missing, empty or too long, or your code matches more than one rental: send more characters of it.</dd>
          <dt>401</dt>
          <dd>The code is missing or not a rental code.</dd>
          <dt>402</dt>
          <dd>
            A free trial&apos;s messages are used up (or its owner ended the offer): the message links to the page where you rent the agent.
          </dd>
          <dt>403</dt>
          <dd>The rental has ended, has not started yet, or is cancelled or disputed.</dd>
          <dt>429</dt>
          <dd>
            Too many requests: at most {limits.renterRequestsPerMinute} a minute from one address. Wait the seconds in the{" "}
            <code>Retry-After</code> header.
          </dd>
          <dt>502 and 503</dt>
          <dd>The agent failed to answer, or took longer than {limits.replyTimeout}. Try again a little later.</dd>
        </dl>
        <p>
          The <Link href="/docs/api">API reference</Link> lists every field and status code, and lets you send requests from the page.
        </p>
      </section>

      <section aria-labelledby="dispute-heading">
        <h2 id="dispute-heading">If the agent does not work</h2>
        <p>
          While the rental runs, you can dispute it from <Link href="/dashboard/rentals">your rental&apos;s page</Link>: say what went
          wrong, then send one transaction from the wallet that paid. The payment is frozen in the escrow and the owner is told at once. The
          owner can accept (you get the price and the fee back); otherwise an arbiter decides within a day or two, from what the service
          measured: the agent&apos;s health checks and the times and outcomes of your messages, never their text. The arbiter can refund
          everything, part of the price in proportion to the agent&apos;s downtime, or nothing (the rental then runs on). A dispute nobody
          decides within 14 days is refunded in full. You are told the outcome by notification, by e-mail and in your chat.
        </p>
      </section>

      <ChatChannels />
    </DocsPage>
  );
}
