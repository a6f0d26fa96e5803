// CI fails when contracts/ changed but lib/chain/generated/ was not rebuilt.
import { expect, it } from "vitest";
import { staleArtifacts } from "@/contracts/compile";

it("has contract artifacts that match the Solidity sources", () => {
  expect(staleArtifacts(), "contract artifacts are stale: run npm run contracts:build").toEqual([]);
});
