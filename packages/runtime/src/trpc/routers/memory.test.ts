import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testCaller } from "../__tests__/caller";

let t: Awaited<ReturnType<typeof testCaller>>;
beforeAll(async () => {
  t = await testCaller({ seed: false });
});
afterAll(async () => {
  await t.cleanup();
});

const waitForJob = async (id: string) => {
  for (let i = 0; i < 200; i++) {
    const job = await t.caller.memory.job({ id });
    if (job.state !== "running") return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("job did not finish");
};

describe("memory router", () => {
  it("adds an item that all three search modes find, with scores and ranks", async () => {
    const item = await t.caller.memory.add({
      key: "Refund approvals",
      content: "Refunds above $200 need a second approver.",
      tags: ["money"],
    });
    expect(item).toMatchObject({ namespace: "global", kind: "memory", tags: ["money"] });
    for (const mode of ["balanced", "semantic", "lexical"] as const) {
      const hits = await t.caller.memory.search({ query: "refund approver", mode });
      expect(hits[0]?.item.id).toBe(item.id);
      expect(hits[0]!.score).toBeGreaterThan(0);
    }
    const [hit] = await t.caller.memory.search({ query: "refund approver" });
    expect(hit).toMatchObject({ lexicalRank: 1, semanticRank: 1, score: 1 });
    await expect(t.caller.memory.search({ query: "  " })).rejects.toThrow("type something to search for");
  });

  it("lists with namespace, kind and thread filters and pages", async () => {
    for (let i = 0; i < 5; i++)
      await t.caller.memory.add({
        namespace: "calls",
        kind: "transcript",
        key: `Maya ${i}`,
        content: `line ${i}`,
        thread: "call-1",
      });
    await t.caller.memory.add({ namespace: "calls", key: "Not in a thread", content: "x" });
    const page = await t.caller.memory.list({
      namespace: "calls",
      kind: "transcript",
      thread: "call-1",
      limit: 2,
      offset: 2,
    });
    expect(page.total).toBe(5);
    expect(page.items.map((i) => i.key)).toEqual(["Maya 2", "Maya 1"]);
    expect(await t.caller.memory.threads({ namespace: "calls" })).toMatchObject([
      { thread: "call-1", items: 5 },
    ]);
    expect((await t.caller.memory.status()).namespaces).toEqual([
      { namespace: "calls", items: 6 },
      { namespace: "global", items: 1 },
    ]);
  });

  it("edits and deletes; a missing item is NOT_FOUND and an empty title is a field error", async () => {
    const item = await t.caller.memory.add({ key: "Lease", content: "The lease ends in 2027." });
    expect(
      await t.caller.memory.edit({
        id: item.id,
        patch: { content: "The lease ends in 2028.", tags: ["office"] },
      }),
    ).toMatchObject({
      content: "The lease ends in 2028.",
      tags: ["office"],
    });
    await expect(t.caller.memory.edit({ id: item.id, patch: { key: " " } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(await t.caller.memory.delete({ id: item.id })).toEqual({ deleted: true });
    await expect(t.caller.memory.get({ id: item.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(t.caller.memory.delete({ id: item.id })).rejects.toThrow(`memory item ${item.id} not found`);
    await expect(t.caller.memory.edit({ id: "nope", patch: { content: "x" } })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("saves PROFILE.md, MEMORY.md and flavours (aliases allowed) and refuses an unknown flavour", async () => {
    await t.caller.memory.setDocument({ document: "profile", markdown: "# Maya\nOwner." });
    await t.caller.memory.setDocument({ document: "memory", markdown: "- closed on Sundays" });
    await t.caller.memory.setFlavour({ flavour: "comms", markdown: "Short and warm." });
    const docs = await t.caller.memory.documents();
    expect(docs).toMatchObject({ profile: "# Maya\nOwner.", memory: "- closed on Sundays" });
    expect(docs.flavours.find((f) => f.name === "communication")?.content).toBe("Short and warm.");
    expect(t.host.services.memory.reader.userFiles().profile).toBe("# Maya\nOwner.");
    await t.caller.memory.deleteFlavour({ flavour: "communication" });
    expect(
      (await t.caller.memory.documents()).flavours.find((f) => f.name === "communication")?.content,
    ).toBeNull();
    await expect(t.caller.memory.setFlavour({ flavour: "vibes", markdown: "x" })).rejects.toThrow(
      "unknown flavour 'vibes'",
    );
  });

  it("runs a re-index job to completion", async () => {
    const { jobId } = await t.caller.memory.reembed();
    expect(await waitForJob(jobId)).toMatchObject({
      kind: "reembed",
      state: "done",
      report: { embedded: 0 },
    });
    await expect(t.caller.memory.job({ id: "missing" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("lets viewers search and read but not write", async () => {
    const viewer = await t.as("viewer");
    expect((await viewer.caller.memory.list({})).total).toBeGreaterThan(0);
    await expect(viewer.caller.memory.add({ key: "K", content: "c" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      viewer.caller.memory.setDocument({ document: "profile", markdown: "x" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
