import { describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";
import { createMemoryTools, readUserFiles } from "./index";
import type { MemoryTool } from "./tool";

async function setup() {
  const m = tempMemory();
  await m.ingest.addMany([
    {
      key: "Invoice numbering",
      content: "Invoices are numbered INV-YYYY-#### and numbers are never reused.",
    },
    { kind: "person", key: "Ken Alvarez", content: "Account rep at Northline Paper, our paper supplier." },
    {
      kind: "transcript",
      key: "Jordan",
      content: "The nozzle check failed this morning.",
      thread: "standup-03-03",
    },
    { namespace: "flow_abc", key: "Flow note", content: "Invoices for this flow go to billing." },
  ]);
  const tools = createMemoryTools(m.reader);
  const tool = (name: string) => tools.find((t) => t.name === name) as MemoryTool;
  return { m, tools, tool };
}

describe("memory_recall", () => {
  it("lists hits as `- [kind] key: content [score%]` under `Found <n> memories:`", async () => {
    const { tool } = await setup();
    const out = await tool("memory_recall").execute({ query: "invoice numbering" });
    const lines = out.split("\n");
    expect(lines[0]).toMatch(/^Found \d+ memories:$/);
    expect(lines[1]).toMatch(
      /^- \[memory\] Invoice numbering: Invoices are numbered INV-YYYY-#### and numbers are never reused\. \[\d{1,3}%\]$/,
    );
  });

  it("shows the thread of a transcript hit so the agent can cite it", async () => {
    const { tool } = await setup();
    const out = await tool("memory_recall").execute({ query: "nozzle check failed", limit: 1 });
    expect(out).toMatch(
      /^Found 1 memories:\n- \[transcript\] Jordan \(thread: standup-03-03\): The nozzle check failed this morning\. \[\d+%\]$/,
    );
  });

  it("searches the global namespace unless told otherwise", async () => {
    const { tool } = await setup();
    expect(await tool("memory_recall").execute({ query: "Flow note billing" })).not.toContain("Flow note");
    expect(
      await tool("memory_recall").execute({ query: "Flow note billing", namespace: "flow_abc" }),
    ).toContain("- [memory] Flow note: Invoices for this flow go to billing.");
  });

  it("answers `No memories found matching that query.` when nothing is close", async () => {
    const { tool } = await setup();
    expect(await tool("memory_recall").execute({ query: "zzqx wvvk" })).toBe(
      "No memories found matching that query.",
    );
  });

  it("rejects an empty query and an empty namespace with the spec's messages", async () => {
    const { tool } = await setup();
    await expect(tool("memory_recall").execute({ query: "  " })).rejects.toThrow(/^query cannot be empty$/);
    await expect(tool("memory_recall").execute({})).rejects.toThrow(/^query cannot be empty$/);
    await expect(tool("memory_recall").execute(undefined)).rejects.toThrow(/^query cannot be empty$/);
    await expect(tool("memory_recall").execute({ query: "x", namespace: "" })).rejects.toThrow(
      /^namespace cannot be empty$/,
    );
    await expect(tool("memory_recall").execute({ query: "x", limit: 0 })).rejects.toThrow(
      "limit must be an integer between 1 and 50",
    );
  });

  it("honours limit", async () => {
    const { m, tool } = await setup();
    await m.ingest.addMany(
      Array.from({ length: 6 }, (_, i) => ({ key: `Paper order ${i}`, content: "Paper order" })),
    );
    const lines = async (limit?: number) =>
      (await tool("memory_recall").execute({ query: "paper order", limit }))
        .split("\n")
        .filter((l) => l.startsWith("- "));
    expect(await lines(2)).toHaveLength(2);
    expect(await lines()).toHaveLength(5);
  });
});

describe("memory_hybrid_search", () => {
  it("prints `Found <n> results (mode=<mode>):` and `- (score) [kind] key: first 200 chars`", async () => {
    const { m, tool } = await setup();
    await m.ingest.add({ key: "Long note", content: `Zebra ${"é".repeat(300)}` });
    const out = await tool("memory_hybrid_search").execute({ query: "zebra", namespace: "global", limit: 1 });
    expect(out).toBe(
      `Found 1 results (mode=balanced):\n- (1.00) [memory] Long note: Zebra ${"é".repeat(194)}…`,
    );
  });

  it("runs each mode and names it in the header", async () => {
    const { tool } = await setup();
    for (const mode of ["balanced", "semantic", "lexical"]) {
      const out = await tool("memory_hybrid_search").execute({
        query: "Ken Alvarez",
        namespace: "global",
        mode,
      });
      expect(out.split("\n")[0]).toMatch(new RegExp(`^Found \\d+ results \\(mode=${mode}\\):$`));
      expect(out.split("\n")[1]).toMatch(
        /^- \(\d\.\d\d\) \[person\] Ken Alvarez: Account rep at Northline Paper/,
      );
    }
  });

  it("finds partial words through the prefix fallback in lexical mode", async () => {
    const { tool } = await setup();
    const out = await tool("memory_hybrid_search").execute({
      query: "Northli",
      namespace: "global",
      mode: "lexical",
    });
    expect(out).toContain("[person] Ken Alvarez");
  });

  it("says so when nothing matches", async () => {
    const { tool } = await setup();
    expect(
      await tool("memory_hybrid_search").execute({ query: "qqqq", namespace: "global", mode: "lexical" }),
    ).toBe("Found 0 results (mode=lexical).");
  });

  it("rejects an unknown mode before any I/O", async () => {
    const { m, tool } = await setup();
    m.close(); // any database access would now throw "The database connection is not open"
    await expect(
      tool("memory_hybrid_search").execute({ query: "x", namespace: "global", mode: "fuzzy" }),
    ).rejects.toThrow(/^Unknown mode 'fuzzy'\. Valid modes: balanced, semantic, lexical$/);
  });

  it("requires a namespace and a limit between 1 and 50", async () => {
    const { tool } = await setup();
    const t = tool("memory_hybrid_search");
    await expect(t.execute({ query: "x" })).rejects.toThrow(/^namespace cannot be empty$/);
    await expect(t.execute({ query: "", namespace: "global" })).rejects.toThrow(/^query cannot be empty$/);
    for (const limit of [0, 51, 2.5, "10"]) {
      await expect(t.execute({ query: "x", namespace: "global", limit })).rejects.toThrow(
        /^limit must be an integer between 1 and 50$/,
      );
    }
    await expect(t.execute({ query: "paper", namespace: "global", limit: 50 })).resolves.toMatch(/^Found/);
  });
});

describe("memory_flavour", () => {
  it("returns the facet document, resolving aliases", async () => {
    const { m, tool } = await setup();
    m.ingest.setFlavour("communication", "# Communication\nShort, warm sentences.");
    expect(await tool("memory_flavour").execute({ flavour: "communication" })).toBe(
      "# Communication\nShort, warm sentences.",
    );
    expect(await tool("memory_flavour").execute({ flavour: "comms" })).toBe(
      "# Communication\nShort, warm sentences.",
    );
  });

  it("reports an unknown flavour with the list of valid ones", async () => {
    const { tool } = await setup();
    await expect(tool("memory_flavour").execute({ flavour: "x" })).rejects.toThrow(
      /^Unknown flavour 'x'\. Valid flavours: communication, coding_style, stack, workflow, environment, directives, anti_preferences$/,
    );
  });

  it("says plainly when a facet has not been built yet (not an error)", async () => {
    const { tool } = await setup();
    await expect(tool("memory_flavour").execute({ flavour: "dislikes" })).resolves.toBe(
      "The 'anti_preferences' flavour has not been built yet.",
    );
  });
});

describe("the 4000-character cap", () => {
  it("cuts every tool result to at most 4000 code points, marker included, never inside a surrogate pair", async () => {
    const { m, tools } = await setup();
    // 3984 ASCII then an astral character straddling the cut (3985 kept + the 15-character marker).
    m.ingest.setFlavour("stack", `${"a".repeat(3984)}😀😀${" tail".repeat(10)}`);
    const flavour = await tools[2]!.execute({ flavour: "stack" });
    expect(flavour).toBe(`${"a".repeat(3984)}😀\n[...truncated]`);
    expect([...flavour].length).toBe(4000);

    await m.ingest.addMany(
      Array.from({ length: 50 }, (_, i) => ({
        key: `Ünïcode note ${i}`,
        content: `widget ${"中文😀".repeat(100)}`,
      })),
    );
    const search = await tools[1]!.execute({ query: "widget", namespace: "global", limit: 50 });
    expect([...search].length).toBe(4000);
    expect(search.endsWith("\n[...truncated]")).toBe(true);
    const recall = await tools[0]!.execute({ query: "widget note", limit: 50 });
    expect([...recall].length).toBeLessThanOrEqual(4000);
    expect(recall).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe("readUserFiles", () => {
  it("returns PROFILE.md and MEMORY.md capped at 2000 chars with the note", async () => {
    const { m } = await setup();
    expect(readUserFiles(m.reader)).toEqual({ profile: "", memory: "" });
    m.ingest.setProfile("Goals: fewer admin hours.");
    m.ingest.setMemoryFile("x".repeat(2500));
    expect(readUserFiles(m.reader)).toEqual({
      profile: "Goals: fewer admin hours.",
      memory: `${"x".repeat(2000)}\n[... truncated at 2000 chars]`,
    });
  });
});
