/** Loads agents/<id>/agent.toml + prompt.md, validates them and refuses to start when broken. */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import type { ToolCatalogEntry } from "../tools/tool";
import { checkDefinitions } from "./rules";
import { type AgentDefinition, agentTomlSchema, toDefinition } from "./schema";

/** Every problem found, one per line; thrown so start-up stops with a readable list. */
export class AgentDefinitionError extends Error {
  readonly problems: readonly string[];
  constructor(problems: string[]) {
    super(problems.join("\n"));
    this.name = "AgentDefinitionError";
    this.problems = Object.freeze([...problems]);
  }
}

export function versionHashOf(tomlText: string, promptText: string): string {
  return createHash("sha256").update(tomlText).update("\u0000").update(promptText).digest("hex").slice(0, 16);
}

/** Parses one folder's files; returns the definition or the problems (no cross-agent checks). */
export function parseAgentDefinition(
  folderName: string,
  tomlText: string,
  promptText: string,
): { definition: AgentDefinition } | { problems: string[] } {
  let raw: unknown;
  try {
    raw = parseToml(tomlText);
  } catch (err) {
    const msg = err instanceof Error ? err.message.split("\n")[0] : String(err);
    return { problems: [`agent folder \`${folderName}\`: agent.toml is not valid TOML: ${msg}`] };
  }
  const parsed = agentTomlSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map((issue) => {
        const field = issue.path.length > 0 ? issue.path.join(".") : "(root)";
        return `agent folder \`${folderName}\`: agent.toml field \`${field}\` ${issue.message}`;
      }),
    };
  }
  if (parsed.data.id !== folderName) {
    return { problems: [`agent folder \`${folderName}\` declares mismatched id \`${parsed.data.id}\``] };
  }
  if (promptText.trim() === "") return { problems: [`agent \`${folderName}\` has an empty prompt.md`] };
  return { definition: toDefinition(parsed.data, promptText, versionHashOf(tomlText, promptText)) };
}

/** Builds the map from in-memory sources (tests, the settings UI's validation) or throws. */
export function defineAgents(
  sources: readonly { folder: string; toml: string; prompt: string }[],
  toolCatalog: readonly ToolCatalogEntry[],
): Map<string, AgentDefinition> {
  const problems: string[] = [];
  const defs = new Map<string, AgentDefinition>();
  for (const src of [...sources].sort((a, b) => (a.folder < b.folder ? -1 : 1))) {
    const r = parseAgentDefinition(src.folder, src.toml, src.prompt);
    if ("problems" in r) problems.push(...r.problems);
    else defs.set(r.definition.id, r.definition);
  }
  problems.push(...checkDefinitions(defs, toolCatalog));
  if (problems.length > 0) throw new AgentDefinitionError(problems);
  return defs;
}

/** `loadAgents(dir, toolCatalog)`: every sub-folder of `dir` is one agent. */
export async function loadAgents(
  dir: string,
  toolCatalog: readonly ToolCatalogEntry[],
): Promise<Map<string, AgentDefinition>> {
  const entries = await readdir(dir, { withFileTypes: true });
  const sources: { folder: string; toml: string; prompt: string }[] = [];
  const problems: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const toml = await readOptional(join(dir, entry.name, "agent.toml"));
    const prompt = await readOptional(join(dir, entry.name, "prompt.md"));
    if (toml === undefined) problems.push(`agent folder \`${entry.name}\` has no agent.toml`);
    if (prompt === undefined) problems.push(`agent folder \`${entry.name}\` has no prompt.md`);
    if (toml !== undefined && prompt !== undefined) sources.push({ folder: entry.name, toml, prompt });
  }
  let defs: Map<string, AgentDefinition> | undefined;
  try {
    defs = defineAgents(sources, toolCatalog);
  } catch (err) {
    if (!(err instanceof AgentDefinitionError)) throw err;
    problems.push(...err.problems);
  }
  if (problems.length > 0 || !defs) throw new AgentDefinitionError(problems);
  return defs;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}
