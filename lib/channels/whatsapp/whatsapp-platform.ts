import "server-only";
import { ANY_MESSAGE_CHATS } from "@/lib/channels/bot-platform";
import { whatsappMessageRequest } from "@/lib/channels/dev/whatsapp-requests";
import type { SdkPlatform } from "@/lib/channels/sdk-platform";
import { env } from "@/lib/env";

/**
 * The WhatsApp bot (/api/channels/whatsapp) on the Cloud API through `@chat-adapter/whatsapp`:
 * Meta's verification GET, X-Hub-Signature-256 on every event, replies through the Graph API.
 * A chat user is their WhatsApp id (wa_id); the service may write to them first only within 24
 * hours of their last message (Meta's customer service window), so a late notice can be refused.
 */
export const whatsappPlatform: SdkPlatform = {
  name: "WhatsApp",
  adapterName: "whatsapp",
  // The number renters message counts too: without it the checkout would point to no one.
  configured: () =>
    Boolean(
      env.WHATSAPP_ACCESS_TOKEN &&
        env.WHATSAPP_APP_SECRET &&
        env.WHATSAPP_PHONE_NUMBER_ID &&
        env.WHATSAPP_VERIFY_TOKEN &&
        env.WHATSAPP_PHONE_NUMBER,
    ),
  apiUrl: () => env.WHATSAPP_API_URL,
  checkoutLinks: () => ({ whatsappNumber: env.WHATSAPP_PHONE_NUMBER ?? null }),
  adapterOptions: () => ({
    accessToken: env.WHATSAPP_ACCESS_TOKEN ?? "",
    appSecret: env.WHATSAPP_APP_SECRET ?? "",
    phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID ?? "",
    verifyToken: env.WHATSAPP_VERIFY_TOKEN ?? "",
    apiUrl: env.WHATSAPP_API_URL.replace(/\/+$/, ""),
  }),
  createAdapter: async (options) => {
    const [{ createWhatsAppAdapter }, { ConsoleLogger }] = await Promise.all([import("@chat-adapter/whatsapp"), import("chat")]);
    return createWhatsAppAdapter({ ...options, userName: "Agent Rental", logger: new ConsoleLogger("warn") });
  },
  // Text only: a photo, a voice note or a location would reach the agent as "[Image]" and the like.
  delivery: (message) =>
    (message.raw as { message?: { type?: string } }).message?.type === "text" ? { key: message.id, text: message.text } : null,
  messageLimit: 4_096,
  howToChat: ANY_MESSAGE_CHATS,
  simulatedRequest: (base, userId, text) =>
    whatsappMessageRequest(`${base}/whatsapp`, env.WHATSAPP_APP_SECRET ?? "", userId, text, {
      phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
    }),
};
