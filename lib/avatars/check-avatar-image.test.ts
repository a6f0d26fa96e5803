import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { AVATAR_MAX_BYTES, checkAvatarImage } from "./check-avatar-image";

const bytes = (...parts: (number[] | string)[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));
const refusal = (data: Uint8Array): [number, string] | null => {
  try {
    checkAvatarImage(data);
  } catch (error) {
    if (error instanceof ApiError) return [error.status, error.message];
    throw error;
  }
  return null;
};

describe("checkAvatarImage", () => {
  it("knows PNG, JPEG and WebP by their first bytes", () => {
    expect(checkAvatarImage(bytes([0x89], "PNG", [0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBe("image/png");
    expect(checkAvatarImage(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe("image/jpeg");
    expect(checkAvatarImage(bytes("RIFF", [0x24, 0, 0, 0], "WEBPVP8 "))).toBe("image/webp");
  });

  it("refuses other files whatever their name, SVG included, and says why", () => {
    expect(refusal(bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toEqual([
      415,
      "That file is not a PNG, JPEG or WebP image. Save the picture in one of those formats and try again.",
    ]);
    expect(refusal(bytes("GIF89a"))?.[0]).toBe(415);
    expect(refusal(bytes("RIFF", [0, 0, 0, 0], "WAVE"))?.[0]).toBe(415);
    expect(refusal(new Uint8Array())).toEqual([400, "Choose an image file first."]);
  });

  it("refuses more than 256 KiB, naming the size", () => {
    const big = new Uint8Array(AVATAR_MAX_BYTES + 1);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(refusal(big)).toEqual([413, "The image is 257 KiB; the most is 256 KiB. Try a smaller one."]);
    expect(checkAvatarImage(big.subarray(0, AVATAR_MAX_BYTES))).toBe("image/png");
  });
});
