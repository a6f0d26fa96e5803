import { describe, expect, it } from "vitest";
import { replyText, splitReply } from "@/lib/channels/reply-text";

describe("replyText", () => {
  it("shows a string as it is and an object by its first non-empty text field, else as JSON", () => {
    expect(replyText("plain")).toBe("plain");
    expect(replyText({ message: "", response: "second", text: "fourth" })).toBe("second");
    expect(replyText({ content: "third", text: "fourth" })).toBe("third");
    expect(replyText({ text: "only" })).toBe("only");
    expect(replyText({ cards: [1] })).toBe('{\n  "cards": [\n    1\n  ]\n}');
    expect(replyText([1, 2])).toBe("[\n  1,\n  2\n]");
    expect(replyText("  ")).toMatch(/empty answer/);
  });
});

describe("splitReply", () => {
  it("keeps a short reply whole", () => {
    expect(splitReply("short", 10, 3, "(more)")).toEqual(["short"]);
  });

  it("cuts at paragraph, then line, then word breaks, each part within the limit", () => {
    expect(splitReply("aaaa bbbb\n\ncccc dddd", 12, 3, "(more)")).toEqual(["aaaa bbbb", "cccc dddd"]);
    expect(splitReply("aaaa bbbb\ncccc", 11, 3, "(more)")).toEqual(["aaaa bbbb", "cccc"]);
    expect(splitReply("aaaa bbbb cccc", 10, 3, "(more)")).toEqual(["aaaa bbbb", "cccc"]);
  });

  it("stops at maxParts and ends the last part with the pointer, still within the limit", () => {
    const parts = splitReply("word ".repeat(100), 40, 2, "(see the API)");
    expect(parts).toHaveLength(2);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(40);
    expect(parts[1].endsWith("(see the API)")).toBe(true);
  });

  it("cuts a text without breaks hard, never inside a surrogate pair", () => {
    const parts = splitReply("😀".repeat(10), 5, 10, "(more)");
    expect(parts.join("")).toBe("😀".repeat(10));
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(5);
    expect(parts.every((p) => !/[\ud800-\udbff]$/.test(p))).toBe(true);
  });
});
