import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "@/lib/env";

// Secrets at rest (webhook URLs and tokens): AES-256-GCM under a keyring, stored as
// "v1.<keyId>.<iv>.<ciphertext>.<tag>" (base64url). The key id travels with the value so keys
// can rotate: the first key of the ring encrypts, every key in it decrypts. The AAD names the
// row and column a value belongs to, so a ciphertext copied elsewhere does not decrypt.
export type SecretBox = {
  encrypt(plaintext: string, aad: string): string;
  decrypt(ciphertext: string, aad: string): string;
  // A 32-byte key for another purpose (e.g. an HMAC), derived from the current key with HKDF, so
  // keyed hashes need no setting of their own. It changes when the keyring's first key does.
  deriveKey(purpose: string): Buffer;
};

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const FORMAT = /^v1\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]*)\.([A-Za-z0-9_-]{22})$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

// INSECURE: a published key ("insecure-development-key-32bytes") so that `npm run dev` works
// with no configuration. Anything it encrypted is readable by anyone; production refuses it.
const INSECURE_DEV_KEYRING = "dev:aW5zZWN1cmUtZGV2ZWxvcG1lbnQta2V5LTMyYnl0ZXM=";

// Error messages name entries by position and id only: never any key material.
function parseKeyring(keyring: string): { current: string; keys: Map<string, Buffer> } {
  const keys = new Map<string, Buffer>();
  keyring.split(",").forEach((entry, index) => {
    const [id, encoded, ...extra] = entry.trim().split(":");
    if (!KEY_ID.test(id) || encoded === undefined || extra.length > 0) {
      throw new Error(`SECRET_BOX_KEYS entry ${index + 1} is not "id:base64key" (id: letters, digits, "-", "_").`);
    }
    const key = Buffer.from(encoded, "base64");
    if (key.length !== 32) throw new Error(`SECRET_BOX_KEYS key "${id}" must be 32 bytes, base64-encoded.`);
    if (keys.has(id)) throw new Error(`SECRET_BOX_KEYS lists key id "${id}" twice.`);
    keys.set(id, key);
  });
  return { current: keys.keys().next().value as string, keys };
}

export function createSecretBox(keyring: string): SecretBox {
  const { current, keys } = parseKeyring(keyring);
  return {
    encrypt(plaintext, aad) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", keys.get(current)!, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(aad, "utf8"));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return ["v1", current, iv, body, cipher.getAuthTag()]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    deriveKey(purpose) {
      return Buffer.from(hkdfSync("sha256", keys.get(current)!, Buffer.alloc(0), `agent-rental-service/${purpose}`, 32));
    },
    decrypt(ciphertext, aad) {
      const match = FORMAT.exec(ciphertext);
      if (!match) throw new Error("Cannot decrypt secret: the value is not in the v1 secret-box format.");
      const [, keyId, iv, body, tag] = match;
      const key = keys.get(keyId);
      if (!key) throw new Error(`Cannot decrypt secret: key "${keyId}" is not in SECRET_BOX_KEYS.`);
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(aad, "utf8"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
      } catch {
        throw new Error("Cannot decrypt secret: authentication failed (wrong key, another row's value, or tampered data).");
      }
    },
  };
}

let defaultBox: SecretBox | undefined;

// Built at first use, not at import, so that a production server without SECRET_BOX_KEYS
// still boots and fails only where a secret is actually needed, with a message saying what to do.
function box(): SecretBox {
  if (defaultBox) return defaultBox;
  if (env.SECRET_BOX_KEYS) {
    defaultBox = createSecretBox(env.SECRET_BOX_KEYS);
    return defaultBox;
  }
  if (env.NODE_ENV === "production") {
    throw new Error(
      'SECRET_BOX_KEYS is not set. Set it to "k1:<32 random bytes, base64>" ' +
        "(node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\").",
    );
  }
  console.warn("[secret-box] SECRET_BOX_KEYS is not set: using the insecure development key.");
  defaultBox = createSecretBox(INSECURE_DEV_KEYRING);
  return defaultBox;
}

export function encryptSecret(plaintext: string, aad: string): string {
  return box().encrypt(plaintext, aad);
}

export function decryptSecret(ciphertext: string, aad: string): string {
  return box().decrypt(ciphertext, aad);
}

export function deriveSecretKey(purpose: string): Buffer {
  return box().deriveKey(purpose);
}
