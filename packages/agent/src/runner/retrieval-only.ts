/**
 * Deterministic retrieval-only answers for retrieval agents when no LLM provider is configured:
 * query the allowed memory tools with the task + data, compose a source-tagged answer. Tool calls
 * still go through the policy session, so a restricted channel restricts this mode too.
 */
import { firstChars } from "@switchyard/contracts/cap";
import type { ToolCall } from "../llm/provider";
import { dispatchToolCall } from "../loop/tool-dispatch";
import type { ToolCallTrace } from "../loop/trace";
import type { ToolPolicySession } from "../policy/session";
import type { Tool } from "../tools/tool";

export const DEFAULT_RETRIEVAL_ONLY_AGENTS = ["flow_memory_agent", "context_scout"] as const;

export interface RetrievalInput {
  agentId: string;
  prompt: string;
  inputContext: unknown;
  session: ToolPolicySession;
  tools: ReadonlyMap<string, Tool>;
  profile?: string | null;
  signal: AbortSignal;
  depth: number;
  toolCalls: ToolCallTrace[];
}

interface Fact {
  text: string;
  source: string;
}

const KIND_TAGS: Record<string, (key: string) => string> = {
  memory: () => "memory",
  transcript: (key) => `transcript: ${key}`,
  person: () => "people",
  people: () => "people",
  profile: () => "profile",
};

export async function retrievalOnlyAnswer(input: RetrievalInput): Promise<string> {
  const query = buildQuery(input.prompt, input.inputContext);
  const plan: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["memory_hybrid_search", { query, namespace: "global", limit: 10 }, { query }],
    ["memory_recall", { query, limit: 5 }, { query }],
  ];
  const facts: Fact[] = [];
  const ctx = { signal: input.signal, agentId: input.agentId, depth: input.depth };
  for (const [index, [name, preferred, minimal]] of plan.entries()) {
    const tool = input.tools.get(name);
    if (!tool || !input.session.isAllowed(name)) continue;
    // Tools from other memory versions may take fewer fields: try the lean argument set next.
    const args = tool.inputSchema.safeParse(preferred).success ? preferred : minimal;
    const call: ToolCall = { id: `retrieval_${index}`, name, arguments: JSON.stringify(args) };
    const r = await dispatchToolCall(call, 1, input.session, input.tools, ctx);
    input.toolCalls.push(r.trace);
    if (r.trace.outcome === "executed") facts.push(...parseHits(r.content));
  }
  facts.push(...profileFacts(input.profile, query));
  const unique = dedupe(facts);
  const subject = describeTask(input.prompt);
  if (input.agentId === "context_scout") return contextBundle(subject, unique);
  if (unique.length === 0) return `No matching memory, threads, or contacts found for ${subject}.`;
  return unique.map((f) => `- ${f.text} (${f.source})`).join("\n");
}

function buildQuery(prompt: string, inputContext: unknown): string {
  const data = inputContext === null || inputContext === undefined ? "" : compact(inputContext);
  return firstChars(`${prompt.trim()} ${data}`.trim(), 1000);
}

function compact(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

/**
 * Hit lines of the memory service (spec/MEMORY.md): recall `- [kind] key: content [87%]`, hybrid
 * `- (0.82) [kind] key: content`; transcript keys carry `(thread: <thread>)`. Other list lines count as memory.
 */
export function parseHits(output: string): Fact[] {
  const facts: Fact[] = [];
  for (const raw of output.split("\n")) {
    const line = raw.trim();
    if (!line.startsWith("- ")) continue;
    let body = line
      .slice(2)
      .replace(/^\(\d+(?:\.\d+)?\)\s*/, "")
      .replace(/\s*\[\d+(?:\.\d+)?%\]$/, "")
      .trim();
    let source = "memory";
    const kind = body.match(/^\[(memory|transcript|person|people|profile)\]\s*/i);
    if (kind) {
      body = body.slice(kind[0].length).trim();
      // `key (thread: t): content` — the thread is what a transcript is cited by.
      const thread = body.match(/^(.*?)\s*\(thread: ([^)]*)\):/);
      let key: string;
      if (thread) {
        key = thread[2]!;
        body = `${thread[1]}:${body.slice(thread[0].length)}`;
      } else {
        const colon = body.indexOf(":");
        key = colon >= 0 ? body.slice(0, colon).trim() : body;
      }
      source = KIND_TAGS[kind[1]!.toLowerCase()]!(key);
    }
    if (body) facts.push({ text: body.replace(/\s+/g, " "), source });
  }
  return facts;
}

/** PROFILE.md lines sharing a significant word with the query. */
function profileFacts(profile: string | null | undefined, query: string): Fact[] {
  if (!profile) return [];
  const words = new Set(query.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_-]{3,}/gu) ?? []);
  return profile
    .split("\n")
    .map((l) => l.replace(/^[-*#\s]+/, "").trim())
    .filter(
      (l) => l && (l.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_-]{3,}/gu) ?? []).some((w) => words.has(w)),
    )
    .map((text) => ({ text, source: "profile" }));
}

function dedupe(facts: Fact[]): Fact[] {
  const seen = new Set<string>();
  return facts.filter((f) => {
    const key = f.text.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function describeTask(prompt: string): string {
  const first = prompt.trim().split("\n")[0] ?? "";
  const short = firstChars(first, 200);
  return short ? `"${short}${short.length < first.length ? "…" : ""}"` : "the request";
}

function contextBundle(subject: string, facts: Fact[]): string {
  const bundle = {
    subject: subject.replace(/^"|"$/g, ""),
    people: [],
    facts: facts.filter((f) => f.source !== "profile").map((f) => ({ text: f.text, source: f.source })),
    preferences: facts
      .filter((f) => f.source === "profile")
      .map((f) => ({ text: f.text, source: "profile" })),
    open_questions:
      facts.length === 0 ? [`No matching memory, threads, or contacts found for ${subject}.`] : [],
  };
  return `[context_bundle]\n${JSON.stringify(bundle, null, 2)}\n[/context_bundle]`;
}
