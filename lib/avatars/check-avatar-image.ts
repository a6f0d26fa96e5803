import { ApiError } from "@/lib/http/api-error";

/** 256 KiB: a sharp 512 × 512 picture in any of the three formats, and a small row to store. */
export const AVATAR_MAX_BYTES = 256 * 1024;

const startsWith = (data: Uint8Array, bytes: number[], at = 0) => bytes.every((b, i) => data[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The image's type, read from its first bytes (what the browser says is not trusted): PNG, JPEG
 * or WebP only. SVG is refused: it is a document that can carry scripts.
 */
export function checkAvatarImage(data: Uint8Array): "image/png" | "image/jpeg" | "image/webp" {
  if (data.length === 0) throw new ApiError(400, "Choose an image file first.");
  if (data.length > AVATAR_MAX_BYTES) {
    throw new ApiError(
      413,
      `The image is ${Math.ceil(data.length / 1024)} KiB; the most is ${AVATAR_MAX_BYTES / 1024} KiB. Try a smaller one.`,
    );
  }
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(data, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(data, ascii("RIFF")) && startsWith(data, ascii("WEBP"), 8)) return "image/webp";
  throw new ApiError(415, "That file is not a PNG, JPEG or WebP image. Save the picture in one of those formats and try again.");
}
