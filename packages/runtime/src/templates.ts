/**
 * Flow templates: the flow files in examples/flows/, offered as "Start from a template" on the Flows
 * page. Read from disk on each request (a handful of small files), so an edited example shows at once.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { NodeRegistry, ValidateOptions } from "@switchyard/engine";
import { checkFlowFile, type FlowFile } from "./trpc/rest/flow-file";
import type { FlowDefinition } from "@switchyard/engine";

export const defaultTemplatesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../examples/flows",
);

/** A template id is its file name without `.json`; nothing else can name a file. */
export const TEMPLATE_ID = /^[a-z0-9][a-z0-9-]{0,99}$/;

export interface FlowTemplate {
  id: string;
  name: string;
  description: string;
  nodeCount: number;
  /** The trigger's type, e.g. `trigger.webhook` (null when the file has none). */
  triggerType: string | null;
  /** Why the file cannot be used as it is (it is still listed, so a broken example is noticed). */
  problem: string | null;
}

type Loaded = FlowTemplate & { definition?: FlowDefinition; file?: FlowFile };

function load(dir: string, id: string, registry: NodeRegistry, checks: ValidateOptions): Loaded {
  const broken = (problem: string): Loaded => ({
    id,
    name: id,
    description: "",
    nodeCount: 0,
    triggerType: null,
    problem,
  });
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path.join(dir, `${id}.json`), "utf8"));
  } catch (e) {
    return broken(`examples/flows/${id}.json cannot be read: ${(e as Error).message}`);
  }
  const checked = checkFlowFile(value, registry, checks);
  if (!checked.ok)
    return broken(
      `examples/flows/${id}.json has problems: ${checked.problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`,
    );
  const trigger = checked.definition.nodes.find((n) => registry.get(n.type)?.kind === "trigger");
  return {
    id,
    name: checked.file.name ?? id,
    description: checked.file.description ?? "",
    nodeCount: checked.definition.nodes.length,
    triggerType: trigger?.type ?? null,
    problem: null,
    definition: checked.definition,
    file: checked.file,
  };
}

export function createTemplates(o: { dir: string; registry: NodeRegistry; checks: () => ValidateOptions }) {
  const ids = () => {
    try {
      return readdirSync(o.dir)
        .filter((f) => f.endsWith(".json"))
        .map((f) => f.slice(0, -".json".length))
        .filter((id) => TEMPLATE_ID.test(id))
        .sort();
    } catch {
      return [];
    }
  };
  return {
    list(): FlowTemplate[] {
      return ids().map((id) => {
        const { definition: _d, file: _f, ...template } = load(o.dir, id, o.registry, o.checks());
        return template;
      });
    },
    /** The template's definition to create a flow from, or why not (`null`: no such template). */
    get(id: string): Loaded | null {
      if (!TEMPLATE_ID.test(id) || !ids().includes(id)) return null;
      return load(o.dir, id, o.registry, o.checks());
    },
  };
}
