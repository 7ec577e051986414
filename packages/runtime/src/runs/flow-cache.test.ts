import type { FlowRepo } from "@switchyard/db";
import { registry } from "@switchyard/nodes";
import { describe, expect, it } from "vitest";
import { createFlowCache } from "./flow-cache";

/** A repository that serves a one-node flow for any id and counts how often it was asked. */
function countingRepo() {
  const reads: string[] = [];
  const repo = {
    getVersion: async (flowId: string, version?: number) => {
      reads.push(`${flowId}@${version}`);
      return {
        flowId,
        version,
        definition: { nodes: [{ id: "hook", type: "trigger.manual", config: {} }], edges: [] },
      };
    },
  } as unknown as FlowRepo;
  return { repo, reads };
}

describe("the flow cache", () => {
  it("keeps the versions used most recently and reads an evicted one again", async () => {
    const { repo, reads } = countingRepo();
    const cache = createFlowCache(repo, registry, 2);
    const a = await cache.get("a", 1);
    await cache.get("b", 1);
    expect(await cache.get("a", 1)).toBe(a); // a hit: a is now the newest
    expect(await cache.get("a", 1)).toBe(a); // a hit on the newest: nothing moves
    await cache.get("c", 1); // evicts b, the least recently used
    await cache.get("a", 1);
    expect(reads).toEqual(["a@1", "b@1", "c@1"]);
    await cache.get("b", 1); // read again; evicts c (a was used after it)
    await cache.get("a", 1);
    expect(reads).toEqual(["a@1", "b@1", "c@1", "b@1"]);
  });

  it("treats a version put after a save as the newest", async () => {
    const { repo, reads } = countingRepo();
    const cache = createFlowCache(repo, registry, 2);
    const a = await cache.get("a", 1);
    await cache.get("b", 1);
    cache.put("a", 1, a); // a moves to the newest place
    await cache.get("c", 1); // so b is evicted, not a
    await cache.get("a", 1);
    expect(reads).toEqual(["a@1", "b@1", "c@1"]);
  });
});
