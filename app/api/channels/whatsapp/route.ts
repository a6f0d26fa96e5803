// GET and POST /api/channels/whatsapp — the WhatsApp bot's webhook (Meta's Cloud API): the
// verification GET echoes hub.challenge for the right verify token; events are signed with
// X-Hub-Signature-256. "start <code>", "status", "extend", "stop", "help", and messages to the
// rented agent (docs/channels.md).

import { whatsappPlatform } from "@/lib/channels/whatsapp/whatsapp-platform";
import { sdkChannelRoute } from "@/lib/http/routes/sdk-channel-route";

export const runtime = "nodejs";
// The owner call runs after the answer to Meta, for up to the webhook timeout.
export const maxDuration = 60;

export const { GET, POST, PUT, PATCH, DELETE } = sdkChannelRoute(whatsappPlatform, ["GET", "POST"]);
