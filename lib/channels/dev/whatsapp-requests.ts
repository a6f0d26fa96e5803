import "server-only";
import { createHmac, randomBytes } from "node:crypto";

// Requests as Meta's WhatsApp Cloud API sends them to the bot's route, signed with the app secret
// (X-Hub-Signature-256, HMAC-SHA256 of the raw body): for the tests and the /dev/channels page
// (development only), which go through the real route and the adapter's real verification.

/** A webhook delivery of one text message from WhatsApp user `waId` to business number `phoneNumberId`. */
export function whatsappMessageRequest(
  url: string,
  appSecret: string,
  waId: string,
  text: string,
  { phoneNumberId = "100000000000001", name = `Dev ${waId.slice(-4)}`, messageId = `wamid.${randomBytes(12).toString("hex")}` } = {},
): Request {
  const value = {
    messaging_product: "whatsapp",
    metadata: { display_phone_number: "15550000000", phone_number_id: phoneNumberId },
    contacts: [{ profile: { name }, wa_id: waId }],
    messages: [{ from: waId, id: messageId, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: text } }],
  };
  const body = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [{ id: "100000000000002", changes: [{ field: "messages", value }] }],
  });
  return new Request(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Hub-Signature-256": `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`,
    },
    body,
  });
}
