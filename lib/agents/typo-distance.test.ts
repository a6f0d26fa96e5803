import { describe, expect, it } from "vitest";
import { typoBudget, typoDistance } from "@/lib/agents/typo-distance";

describe("typoBudget", () => {
  it("allows none under 5 characters, one from 5 and two from 9, counting characters", () => {
    expect(["", "sql", "lark"].map(typoBudget)).toEqual([0, 0, 0]);
    expect(["quill", "scribler"].map(typoBudget)).toEqual([1, 1]);
    expect(["scribbler", "typewriters"].map(typoBudget)).toEqual([2, 2]);
    expect(typoBudget("😀😀😀😀")).toBe(0); // four characters, eight UTF-16 units
    expect(typoBudget("échoï")).toBe(1);
  });
});

describe("typoDistance", () => {
  it("counts a letter added, left out or replaced, and two neighbours swapped, as one typo each", () => {
    expect(typoDistance("quill", "quill", 2)).toBe(0);
    expect(typoDistance("parot", "parrot", 2)).toBe(1);
    expect(typoDistance("laark", "lark", 2)).toBe(1);
    expect(typoDistance("quilk", "quill", 2)).toBe(1);
    expect(typoDistance("qiull", "quill", 2)).toBe(1);
    expect(typoDistance("scirbbelr", "scribbler", 2)).toBe(2);
    expect(typoDistance("ab", "ba", 2)).toBe(1);
  });

  it("compares characters, not UTF-16 units", () => {
    expect(typoDistance("🙂🙃", "🙃🙂", 2)).toBe(1);
    expect(typoDistance("échoï", "echoï", 2)).toBe(1);
  });

  it("says max + 1 once the words are further apart than asked", () => {
    expect(typoDistance("scirbbelrr", "scribbler", 2)).toBe(3);
    expect(typoDistance("quill", "parrot", 1)).toBe(2);
    expect(typoDistance("a", "abcd", 2)).toBe(3); // the lengths alone say so
    expect(typoDistance("kitten", "sitting", 3)).toBe(3);
  });

  it("does not edit a swapped pair again (optimal string alignment)", () => {
    // "ca" → "ac" → "abc" would be two edits; a swapped pair stays as swapped, so three.
    expect(typoDistance("ca", "abc", 3)).toBe(3);
  });
});
