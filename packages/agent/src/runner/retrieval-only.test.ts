import { describe, expect, it } from "vitest";
import { loadShipped } from "../__tests__/fixtures";
import { harness, request } from "../__tests__/harness";
import { parseHits } from "./retrieval-only";

const shipped = await loadShipped();

describe("retrieval-only mode (no provider configured)", () => {
  it("answers flow_memory_agent from the memory tools with a source tag on every fact", async () => {
    const h = harness({ definitions: shipped });
    const res = await h.runner.run(
      request({
        agentRef: "flow_memory_agent",
        prompt: "What do we know about Harbor Logistics?",
        inputContext: { from: "dana@harbor.example" },
      }),
    );
    expect(res.stop).toBe("finished");
    expect(res.text).toBe(
      [
        "- Dana Whitfield: procurement lead at Harbor Logistics; prefers e-mail over calls (people)",
        "- INV-2291: Harbor Logistics invoice disputed in March, settled at 4,200 EUR (memory)",
        "- harbor-renewal: Dana asked for the renewal quote by Friday (transcript: harbor-renewal)",
      ].join("\n"),
    );
    expect(res.usage).toBeUndefined();
    expect(h.memory.calls.map((c) => c.name)).toEqual(["memory_hybrid_search", "memory_recall"]);
    expect(h.memory.calls[0]!.args).toMatchObject({ namespace: "global", limit: 10 });
    expect((h.memory.calls[0]!.args as { query: string }).query).toContain("dana@harbor.example");
    const t = h.traces[0]!;
    expect(t).toMatchObject({
      mode: "retrieval_only",
      provider: null,
      model: null,
      llmCalls: [],
      stop: "finished",
    });
    expect(t.toolCalls.map((c) => [c.name, c.outcome])).toEqual([
      ["memory_hybrid_search", "executed"],
      ["memory_recall", "executed"],
    ]);
  });

  it("says plainly when nothing matches", async () => {
    const h = harness({ definitions: shipped });
    const res = await h.runner.run(
      request({ agentRef: "flow_memory_agent", prompt: "Quarterly yoga schedule", inputContext: null }),
    );
    expect(res.text).toBe('No matching memory, threads, or contacts found for "Quarterly yoga schedule".');
  });

  it("tags transcript hits with their thread and adds matching profile lines", async () => {
    const h = harness({ definitions: shipped });
    const res = await h.runner.run(
      request({
        agentRef: "flow_memory_agent",
        prompt: "renewal quote from Dana; who is the account manager",
        inputContext: null,
      }),
    );
    expect(res.text).toContain(
      "- harbor-renewal: Dana asked for the renewal quote by Friday (transcript: harbor-renewal)",
    );
    expect(res.text).toContain("- Role: account manager (profile)");
  });

  it("respects the channel ceiling: no memory tool runs when the channel allows none", async () => {
    const h = harness({ definitions: shipped, channelCeilings: { webhook: "none" } });
    const res = await h.runner.run(
      request({ agentRef: "flow_memory_agent", prompt: "Harbor Logistics", inputContext: null }),
    );
    expect(h.memory.calls).toHaveLength(0);
    expect(res.text).toBe('No matching memory, threads, or contacts found for "Harbor Logistics".');
  });

  it("answers context_scout with a parseable [context_bundle] block", async () => {
    const h = harness({ definitions: shipped });
    const res = await h.runner.run(
      request({ agentRef: "context_scout", prompt: "Context on Harbor Logistics", inputContext: null }),
    );
    const m = res.text.match(/^\[context_bundle\]\n([\s\S]*)\n\[\/context_bundle\]$/);
    expect(m).not.toBeNull();
    const bundle = JSON.parse(m![1]!);
    expect(bundle.subject).toBe("Context on Harbor Logistics");
    expect(bundle.facts).toContainEqual({
      text: "INV-2291: Harbor Logistics invoice disputed in March, settled at 4,200 EUR",
      source: "memory",
    });
  });

  it("parses hybrid-search lines with their score prefix and transcript threads", () => {
    expect(
      parseHits(
        "Found 2 results (mode=balanced):\n- (0.82) [transcript] Call notes (thread: harbor-renewal): quote by Friday\n- (0.40) [memory] INV-1: paid",
      ),
    ).toEqual([
      { text: "Call notes: quote by Friday", source: "transcript: harbor-renewal" },
      { text: "INV-1: paid", source: "memory" },
    ]);
  });

  it("parses the memory service's hit lines and ignores headers", () => {
    expect(
      parseHits(
        "Found 2 memories:\n- [person] Ann: CTO [91%]\n- plain line\nNo memories found matching that query.",
      ),
    ).toEqual([
      { text: "Ann: CTO", source: "people" },
      { text: "plain line", source: "memory" },
    ]);
  });
});
