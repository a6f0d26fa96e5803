import { describe, expect, it } from "vitest";
import type { RentalLookup, RentalWithAgent } from "@/lib/rentals/find-rental-by-code";
import { recentRentalLookups } from "@/lib/rentals/recent-rental-lookups";

const rental = (status: RentalWithAgent["status"]) => ({ id: "r1", status }) as RentalWithAgent;

describe("recentRentalLookups", () => {
  it("serves a found rental for its time to live, then reads it again", async () => {
    let now = 0;
    const answers: RentalLookup[] = [
      { kind: "found", rental: rental("active") },
      { kind: "found", rental: rental("disputed") },
    ];
    let reads = 0;
    const find = recentRentalLookups({ ttlMs: 1000, now: () => now, lookup: async () => answers[reads++] });
    const status = async () => {
      const r = await find("abcd1234");
      return r.kind === "found" ? r.rental.status : r.kind;
    };
    expect([await status(), await status()]).toEqual(["active", "active"]);
    now = 999;
    expect(await status()).toBe("active");
    now = 1000;
    expect(await status()).toBe("disputed");
    expect(reads).toBe(2);
  });

  it("never keeps a code that matched nothing or more than one rental", async () => {
    const answers: RentalLookup[] = [{ kind: "none" }, { kind: "ambiguous" }, { kind: "found", rental: rental("active") }];
    let reads = 0;
    const find = recentRentalLookups({ ttlMs: 60_000, now: () => 0, lookup: async () => answers[reads++] });
    expect((await find("abcd1234")).kind).toBe("none");
    expect((await find("abcd1234")).kind).toBe("ambiguous");
    expect((await find("abcd1234")).kind).toBe("found");
    expect((await find("abcd1234")).kind).toBe("found");
    expect(reads).toBe(3);
  });

  it("shares one read between concurrent requests for the same code", async () => {
    let reads = 0;
    const find = recentRentalLookups({
      ttlMs: 1000,
      now: () => 0,
      lookup: async () => {
        reads++;
        return { kind: "found", rental: rental("active") };
      },
    });
    await Promise.all([find("abcd1234"), find("abcd1234"), find("abcd1234")]);
    expect(reads).toBe(1);
  });
});
