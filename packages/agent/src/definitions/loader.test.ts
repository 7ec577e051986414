import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUILTIN_TOOL_CATALOG, type ToolCatalogEntry } from "../tools/tool";
import { AgentDefinitionError, defineAgents, loadAgents } from "./loader";
import { effectiveMaxIterations } from "./schema";

const AGENTS_DIR = resolve(import.meta.dirname, "../../../../agents");
const catalog: ToolCatalogEntry[] = [
  ...BUILTIN_TOOL_CATALOG,
  { name: "send_email", permission: "write" },
  { name: "run_script", permission: "execute" },
];

function src(folder: string, toml: string, prompt = "Do the task.") {
  return { folder, toml, prompt };
}
function agent(id: string, extra = "") {
  return src(id, `id = "${id}"\nwhen_to_use = "When ${id} helps."\n${extra}`);
}
function problemsOf(fn: () => unknown): readonly string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof AgentDefinitionError) return err.problems;
    throw err;
  }
  throw new Error("expected the loader to refuse");
}

describe("loadAgents on the shipped agents/ folder", () => {
  it("loads every shipped definition with the builtin catalogue", async () => {
    const defs = await loadAgents(AGENTS_DIR, BUILTIN_TOOL_CATALOG);
    expect([...defs.keys()].sort()).toEqual([
      "classifier",
      "context_scout",
      "drafter",
      "flow_memory_agent",
      "operator",
      "orchestrator",
      "planner",
      "researcher",
      "support_responder",
    ]);
  });

  it("ships agents that act: support_responder writes (send_email, http_request), operator executes (run_code)", async () => {
    const defs = await loadAgents(AGENTS_DIR, BUILTIN_TOOL_CATALOG);
    const level = new Map(BUILTIN_TOOL_CATALOG.map((t) => [t.name, t.permission]));
    const needs = (id: string) => (defs.get(id)!.tools as string[]).map((t) => [t, level.get(t)]);
    expect(needs("support_responder")).toEqual([
      ["memory_recall", "read_only"],
      ["memory_flavour", "read_only"],
      ["send_email", "write"],
      ["http_request", "write"],
    ]);
    expect(needs("operator")).toEqual([
      ["run_code", "execute"],
      ["start_flow", "write"],
      ["http_request", "write"],
    ]);
    expect(defs.get("support_responder")!.sandboxMode).toBe("none");
  });

  it("loads flow_memory_agent exactly as spec §3 describes", async () => {
    const d = (await loadAgents(AGENTS_DIR, BUILTIN_TOOL_CATALOG)).get("flow_memory_agent")!;
    expect(d).toMatchObject({
      displayName: "Flow Memory Agent",
      delegateName: "retrieve_flow_context",
      temperature: 0.3,
      maxIterations: 10,
      iterationPolicy: "extended",
      maxResultChars: 4000,
      sandboxMode: "read_only",
      agentTier: "worker",
      omit: { identity: true, memoryContext: true, safetyPreamble: true, profile: false, memoryMd: false },
      model: { hint: "burst" },
      tools: ["memory_recall", "memory_hybrid_search", "memory_flavour"],
      subagents: [],
    });
    expect(effectiveMaxIterations(d)).toBe(50);
    expect(d.tools).not.toContain("memory_tree");
    for (const name of d.tools as string[]) {
      expect(BUILTIN_TOOL_CATALOG.find((t) => t.name === name)?.permission).toBe("read_only");
    }
    expect(d.versionHash).toMatch(/^[0-9a-f]{16}$/);
  });

  it("ships an orchestrator in the chat tier that allowlists workers and the reasoning-tier planner", async () => {
    const defs = await loadAgents(AGENTS_DIR, BUILTIN_TOOL_CATALOG);
    const o = defs.get("orchestrator")!;
    expect(o).toMatchObject({
      displayName: "Master Agent",
      agentTier: "chat",
      temperature: 0.4,
      maxIterations: 15,
    });
    expect(o.sandboxMode).toBe("sandboxed");
    expect(o.subagents.map((id) => [id, defs.get(id)?.agentTier])).toEqual([
      ["flow_memory_agent", "worker"],
      ["context_scout", "worker"],
      ["classifier", "worker"],
      ["drafter", "worker"],
      ["researcher", "worker"],
      ["planner", "reasoning"],
    ]);
    // chat → reasoning → worker: the planner runs on the reasoning model and delegates only to workers.
    const planner = defs.get("planner")!;
    expect(planner).toMatchObject({
      agentTier: "reasoning",
      model: { hint: "reasoning" },
      sandboxMode: "read_only",
    });
    for (const id of planner.subagents) expect(defs.get(id)?.agentTier).toBe("worker");
    expect(defs.get("researcher")!.tools).toEqual(["http_get"]);
    expect(defs.get("classifier")!.tools).toEqual([]);
  });

  it("refuses a folder without prompt.md and names it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agents-"));
    dirs.push(dir);
    await mkdir(join(dir, "lonely"));
    await writeFile(join(dir, "lonely", "agent.toml"), 'id = "lonely"\nwhen_to_use = "x"\n');
    await expect(loadAgents(dir, catalog)).rejects.toThrow("agent folder `lonely` has no prompt.md");
  });
});

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe("defaults", () => {
  it("applies every default of spec §1", () => {
    const d = defineAgents([agent("plain")], catalog).get("plain")!;
    expect(d).toMatchObject({
      displayName: "plain",
      delegateName: "delegate_plain",
      temperature: 0.4,
      maxIterations: 8,
      iterationPolicy: "strict",
      sandboxMode: "none",
      agentTier: "worker",
      omit: { identity: true, memoryContext: true, safetyPreamble: true, profile: true, memoryMd: true },
      model: {},
      tools: "all",
      subagents: [],
    });
    expect(d.maxResultChars).toBeUndefined();
    expect(d.timeoutSecs).toBeUndefined();
    expect(effectiveMaxIterations(d)).toBe(8);
  });

  it("changes the version hash when the prompt changes", () => {
    const a = defineAgents([agent("v")], catalog).get("v")!;
    const b = defineAgents([{ ...agent("v"), prompt: "Do it differently." }], catalog).get("v")!;
    expect(a.versionHash).not.toBe(b.versionHash);
  });
});

describe("loader rules (exact messages)", () => {
  it("refuses an id that differs from the folder name", () => {
    expect(problemsOf(() => defineAgents([src("x", 'id = "y"\nwhen_to_use = "w"')], catalog))).toEqual([
      "agent folder `x` declares mismatched id `y`",
    ]);
  });

  it("refuses a worker that lists subagents", () => {
    const p = problemsOf(() =>
      defineAgents([agent("p", '[subagents]\nallowlist = ["c"]'), agent("c")], catalog),
    );
    expect(p).toEqual([
      "agent `p` is a `worker` tier and must not list `c` in its subagents — workers are leaf executors",
    ]);
  });

  it("refuses chat → chat", () => {
    const p = problemsOf(() =>
      defineAgents(
        [
          agent("a", 'agent_tier = "chat"\n[subagents]\nallowlist = ["b"]'),
          agent("b", 'agent_tier = "chat"'),
        ],
        catalog,
      ),
    );
    expect(p).toHaveLength(1);
    expect(p[0]).toContain(
      "the chat tier is a leaf in its own dimension — hand off to a reasoning or worker agent instead",
    );
  });

  it("refuses reasoning → reasoning", () => {
    const p = problemsOf(() =>
      defineAgents(
        [
          agent("a", 'agent_tier = "reasoning"\n[subagents]\nallowlist = ["b"]'),
          agent("b", 'agent_tier = "reasoning"'),
        ],
        catalog,
      ),
    );
    expect(p[0]).toContain("reasoning agents compose downward into workers, not into each other");
  });

  it("allows chat → worker, chat → reasoning → worker and upward hops", () => {
    const defs = defineAgents(
      [
        agent("c", 'agent_tier = "chat"\n[subagents]\nallowlist = ["r", "w"]'),
        agent("r", 'agent_tier = "reasoning"\n[subagents]\nallowlist = ["w", "c"]'),
        agent("w"),
      ],
      catalog,
    );
    expect(defs.size).toBe(3);
  });

  it("refuses a read_only agent that lists a write tool", () => {
    const p = problemsOf(() =>
      defineAgents(
        [agent("ro", 'sandbox_mode = "read_only"\n[tools]\nnamed = ["memory_recall", "send_email"]')],
        catalog,
      ),
    );
    expect(p).toEqual([
      "agent `ro` has sandbox_mode `read_only` and must not list `send_email` (requires `write`)",
    ]);
  });

  it("refuses flow_memory_agent with memory_tree or a tool that can write", () => {
    const fma = (named: string) => agent("flow_memory_agent", `[tools]\nnamed = [${named}]`);
    expect(problemsOf(() => defineAgents([fma('"memory_recall", "memory_tree"')], catalog))).toEqual([
      "agent `flow_memory_agent` must never list `memory_tree`",
    ]);
    expect(problemsOf(() => defineAgents([fma('"run_script"')], catalog))).toEqual([
      "agent `flow_memory_agent` must never list `run_script`: it can write (requires `execute`)",
    ]);
    expect(problemsOf(() => defineAgents([agent("flow_memory_agent")], catalog))).toContain(
      "agent `flow_memory_agent` must name its tools explicitly in [tools] named",
    );
  });

  it("refuses unknown tool names and unknown subagents", () => {
    expect(problemsOf(() => defineAgents([agent("a", '[tools]\nnamed = ["people_list"]')], catalog))).toEqual(
      ["agent `a` lists unknown tool `people_list`"],
    );
    expect(
      problemsOf(() =>
        defineAgents([agent("a", 'agent_tier = "chat"\n[subagents]\nallowlist = ["ghost"]')], catalog),
      ),
    ).toEqual(["agent `a` lists unknown subagent `ghost`"]);
  });

  it("refuses unknown fields, bad values and broken TOML with the file and field named", () => {
    expect(problemsOf(() => defineAgents([agent("a", "max_iteratons = 3")], catalog))[0]).toContain(
      "agent folder `a`: agent.toml field `(root)`",
    );
    expect(problemsOf(() => defineAgents([agent("a", 'agent_tier = "boss"')], catalog))[0]).toMatch(
      /^agent folder `a`: agent.toml field `agent_tier` /,
    );
    expect(problemsOf(() => defineAgents([src("a", 'id = "a"\nwhen_to_use = ')], catalog))[0]).toMatch(
      /^agent folder `a`: agent.toml is not valid TOML: /,
    );
    expect(problemsOf(() => defineAgents([src("a", 'id = "a"')], catalog))[0]).toBe(
      "agent folder `a`: agent.toml field `when_to_use` Invalid input: expected string, received undefined",
    );
  });

  it("refuses two subagents that would give the same delegate tool name", () => {
    const p = problemsOf(() =>
      defineAgents(
        [
          agent("boss", 'agent_tier = "chat"\n[subagents]\nallowlist = ["w1", "w2"]'),
          agent("w1", 'delegate_name = "helper"'),
          agent("w2", 'delegate_name = "helper"'),
        ],
        catalog,
      ),
    );
    expect(p).toEqual(["agent `boss` would get two delegate tools named `helper` (from `w1` and `w2`)"]);
  });

  it("reports every problem at once", () => {
    const err = (() => {
      try {
        defineAgents([agent("a", '[tools]\nnamed = ["nope1", "nope2"]')], catalog);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toBe("agent `a` lists unknown tool `nope1`\nagent `a` lists unknown tool `nope2`");
  });
});
