// The renters' page's chat apps: how to connect a rental in Telegram, Discord, Slack, WhatsApp, Teams
// or Google Chat with its code, with the service's own bot links where this deployment runs that bot (in development, the
// simulator's), and how a rental moves to another chat account.
import { channelLinks } from "@/lib/channels/channel-links";
import { channelName } from "@/lib/channels/channel-name";
import { CHAT_MOVE_TTL_MS } from "@/lib/channels/chat-move-token";
import { discordInstallUrl, telegramBotUrl, whatsappChatUrl } from "@/lib/channels/checkout-instructions";
import { isChannelConfigured } from "@/lib/channels/configured-channels";
import { simulatorUrl } from "@/lib/checkout/activation";
import { plural } from "@/lib/format/plural";

const NOT_OFFERED = "Not offered on this service at the moment.";

// npm run dev: the platform's bot is the local simulator's, named nowhere on the platform.
function Simulated({ platform }: { platform: "Telegram" | "Discord" | "Slack" | "WhatsApp" | "Teams" | "GoogleChat" }) {
  const name = channelName(platform);
  return (
    <p className="hint">
      This development server runs its {name} bot in a local simulator, not on {name}:{" "}
      <a href={simulatorUrl(platform)}>open the {name} simulator</a> and type the commands below there.
    </p>
  );
}

export function ChatChannels() {
  const links = channelLinks();
  return (
    <section aria-labelledby="channels-heading">
      <h2 id="channels-heading">Chat apps: Telegram, Discord, Slack, WhatsApp, Teams and Google Chat</h2>
      <p>
        At checkout you choose where you talk to the agent. For a chat app, connect the rental to your chat with the code, then write as you
        would to anyone. One chat holds one rental at a time, and the rental must have been bought for that app. The same code also works
        with the API above, whatever app you chose.
      </p>

      <h3>Telegram</h3>
      {links.simulated.includes("Telegram") && <Simulated platform="Telegram" />}
      {isChannelConfigured("Telegram") ? (
        <ol>
          <li>
            Open {links.telegramBot ? <a href={telegramBotUrl(links.telegramBot)}>@{links.telegramBot}</a> : "the service's bot"} in
            Telegram, or press <strong>Open in Telegram</strong> after checkout: it starts the chat with your code.
          </li>
          <li>
            Send <code>/start &lt;RENTAL_CODE&gt;</code>. The bot answers with the agent&apos;s name and when the rental ends.
          </li>
          <li>
            Send any message to talk to the agent. <code>/status</code> shows the time left; <code>/stop</code> disconnects the chat.
          </li>
        </ol>
      ) : (
        <p className="hint">{NOT_OFFERED}</p>
      )}

      <h3>Discord</h3>
      {links.simulated.includes("Discord") && <Simulated platform="Discord" />}
      {isChannelConfigured("Discord") ? (
        <ol>
          <li>
            {links.discordApplicationId ? (
              <a href={discordInstallUrl(links.discordApplicationId)}>Add the app to your Discord account</a>
            ) : (
              "Add the service's app to your Discord account"
            )}{" "}
            (once). It then works in a direct message with it and in any server.
          </li>
          <li>
            Run <code>/start code:&lt;RENTAL_CODE&gt;</code>.
          </li>
          <li>
            Talk to the agent with <code>/chat message:&lt;your message&gt;</code>. <code>/status</code> shows the time left;{" "}
            <code>/stop</code> disconnects.
          </li>
        </ol>
      ) : (
        <p className="hint">{NOT_OFFERED}</p>
      )}

      <h3>Slack</h3>
      {links.simulated.includes("Slack") && <Simulated platform="Slack" />}
      {isChannelConfigured("Slack") ? (
        <ol>
          <li>
            {links.slackInstallUrl ? (
              <>
                <a href={links.slackInstallUrl}>Add the app to your Slack workspace</a> (once per workspace).
              </>
            ) : links.slackAppUrl ? (
              <>
                <a href={links.slackAppUrl}>Open the app in the service&apos;s Slack workspace</a>.
              </>
            ) : (
              "Open the service's app in your Slack workspace (once per workspace)."
            )}
          </li>
          <li>
            Run <code>/agent start &lt;RENTAL_CODE&gt;</code>.
          </li>
          <li>
            Send the app a direct message to talk to the agent. <code>/agent status</code> shows the time left; <code>/agent stop</code>{" "}
            disconnects.
          </li>
        </ol>
      ) : (
        <p className="hint">{NOT_OFFERED}</p>
      )}
      <h3>WhatsApp</h3>
      {links.simulated.includes("WhatsApp") && <Simulated platform="WhatsApp" />}
      {isChannelConfigured("WhatsApp") ? (
        <>
          <ol>
            <li>
              Press <strong>Open in WhatsApp</strong> after checkout: it opens a chat with the service&apos;s number
              {links.whatsappNumber ? (
                <>
                  {" "}
                  (<a href={whatsappChatUrl(links.whatsappNumber)}>+{links.whatsappNumber}</a>)
                </>
              ) : null}{" "}
              with the start message already typed in; send it.
            </li>
            <li>
              Or send <code>start &lt;RENTAL_CODE&gt;</code> to that number yourself. The bot answers with the agent&apos;s name and when
              the rental ends.
            </li>
            <li>
              Send any message to talk to the agent. <code>status</code> shows the time left, <code>extend</code> gives the link to extend
              the rental, <code>stop</code> disconnects the chat and <code>help</code> lists these. A command is the word on its own:
              &ldquo;stop the car&rdquo; goes to the agent.
            </li>
          </ol>
          <p className="hint">
            WhatsApp lets a service write to you first only within 24 hours of your last message there. After a day of silence, a reminder
            that the rental is ending or the message that it has ended may not reach you; the rental&apos;s page in your dashboard always
            shows the time left.
          </p>
        </>
      ) : (
        <p className="hint">{NOT_OFFERED}</p>
      )}

      <h3>Microsoft Teams</h3>
      {links.simulated.includes("Teams") && <Simulated platform="Teams" />}
      {isChannelConfigured("Teams") ? (
        <ol>
          <li>Find the service&apos;s app in Teams (Apps, then search for it by name) and open a chat with it.</li>
          <li>
            Send <code>start &lt;RENTAL_CODE&gt;</code>.
          </li>
          <li>
            Send any message to talk to the agent. <code>status</code> shows the time left; <code>stop</code> disconnects. The bot answers
            in your personal chat with it only, not in channels or group chats.
          </li>
        </ol>
      ) : (
        <p className="hint">{NOT_OFFERED}</p>
      )}

      <h3>Google Chat</h3>
      {links.simulated.includes("GoogleChat") && <Simulated platform="GoogleChat" />}
      {isChannelConfigured("GoogleChat") ? (
        <ol>
          <li>Find the service&apos;s app in Google Chat (New chat, then Find apps) and open a direct message with it.</li>
          <li>
            Send <code>start &lt;RENTAL_CODE&gt;</code>.
          </li>
          <li>
            Send any message to talk to the agent. <code>status</code> shows the time left; <code>stop</code> disconnects. The app answers
            in your direct message with it only, not in spaces.
          </li>
        </ol>
      ) : (
        <p className="hint">{NOT_OFFERED}</p>
      )}
      <h3>Another chat account</h3>
      <p>
        The code connects the first chat account that sends it, and after that only that one: someone else who learns your code cannot take
        the rental. <code>/stop</code> (on WhatsApp, <code>stop</code>) does not end the rental: the same account connects it again with{" "}
        <code>/start</code> (<code>start</code>) and the code. To use it from another account (a new phone, someone who connected first with
        your code), press <strong>Move to another chat account</strong> on the rental&apos;s page in your dashboard, or on the checkout page
        while it is still open, and send the one-time command it gives you from that account within{" "}
        {plural(CHAT_MOVE_TTL_MS / 60_000, "minute")}. The account that had the rental is told. After <strong>Disconnect chat</strong> on
        the rental&apos;s page, only such a command connects a chat again.
      </p>
      <p className="hint">A long answer is split into a few messages; what does not fit says so, and the API returns it whole.</p>
    </section>
  );
}
