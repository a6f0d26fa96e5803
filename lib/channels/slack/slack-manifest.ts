// The Slack app's manifest (api.slack.com/apps → Create New App → From a manifest): the bot user,
// the /agent command, the direct-message events, the Messages tab and the scopes, all pointed at
// this deployment.
export function slackManifest(appUrl: string) {
  const requestUrl = `${appUrl}/api/channels/slack`;
  return {
    display_information: {
      name: "Agent Rental",
      description: "Talk to the AI agent you rented on the Agent Rental Service.",
      background_color: "#1d4ed8",
    },
    features: {
      app_home: { home_tab_enabled: false, messages_tab_enabled: true, messages_tab_read_only_enabled: false },
      bot_user: { display_name: "Agent Rental", always_online: true },
      slash_commands: [
        {
          command: "/agent",
          url: requestUrl,
          description: "Connect your rental, see its time left, extend it, or disconnect",
          usage_hint: "start <code> | status | extend | stop | help",
          should_escape: false,
        },
      ],
    },
    oauth_config: {
      redirect_urls: [`${appUrl}/api/channels/slack/oauth`],
      // commands: /agent; chat:write: the answers; im:history: the DMs renters send; im:write: opening one.
      scopes: { bot: ["commands", "chat:write", "im:history", "im:write"] },
    },
    settings: {
      event_subscriptions: { request_url: requestUrl, bot_events: ["message.im"] },
      org_deploy_enabled: false,
      socket_mode_enabled: false,
      token_rotation_enabled: false,
    },
  };
}
