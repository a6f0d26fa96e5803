// /channels/slack-added — where "Add to Slack" ends: the app is in the workspace; what to type next.
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Added to Slack" };

export default function SlackAddedPage() {
  return (
    <main id="main" tabIndex={-1} className="container">
      <div className="empty">
        <h1>Agent Rental is in your Slack workspace</h1>
        <p>
          In Slack, run <code>/agent start &lt;your rental code&gt;</code>, then send the app a direct message to talk to the agent.
        </p>
        <p>
          <a href="/" className="button">
            Back to the marketplace
          </a>
        </p>
      </div>
    </main>
  );
}
