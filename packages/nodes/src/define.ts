import type { NodeDefinition, NodeResult, TriggerDefinition } from "@switchyard/engine";
import type { z } from "zod";
import { NodeError } from "./errors";
import type { NodeArgs } from "./types";

/** Everything a node author writes; `kind`, `inputs` and `runMode` get defaults. */
export interface NodeSpec<S extends z.ZodType>
  extends Omit<NodeDefinition<S>, "kind" | "inputs" | "runMode" | "execute"> {
  inputs?: readonly string[];
  runMode?: "once" | "perItem";
  execute(args: NodeArgs<z.infer<S>>): Promise<NodeResult>;
}

export interface TriggerSpec<S extends z.ZodType, P extends z.ZodType>
  extends Omit<TriggerDefinition<S, P>, "kind" | "category" | "ports"> {}

/** Renders zod issues as `config.a.b: message`, so the user sees which field is wrong. */
export function formatIssues(prefix: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
      return `${prefix}${path}: ${issue.message}`;
    })
    .join("; ");
}

/** Checks a config against a schema outside a run (the trigger schema tests); runs parse with the engine's `parseNodeConfig`. */
export function parseConfig<S extends z.ZodType>(schema: S, config: unknown, nodeId?: string): z.infer<S> {
  const parsed = schema.safeParse(config);
  if (!parsed.success) {
    throw new NodeError("config_invalid", formatIssues("config", parsed.error), {
      nodeId,
      retryable: false,
      cause: parsed.error,
      field: parsed.error.issues[0]?.path.map(String).join("."),
    });
  }
  return parsed.data;
}

/**
 * Builds an action node. `execute` gets the config already parsed by the engine (`parseNodeConfig`, after
 * expressions are resolved): parsing it again here gave one mistake two error formats. Tests go through
 * `__tests__/execute-node.ts`, which parses the same way.
 */
export function defineNode<S extends z.ZodType>(spec: NodeSpec<S>): NodeDefinition<S> {
  const { execute, inputs, runMode, ...rest } = spec;
  return {
    ...rest,
    kind: "action",
    inputs: inputs ?? ["main"],
    runMode: runMode ?? "once",
    execute,
  };
}

/** Builds a trigger declaration; the runtime does the listening. */
export function defineTrigger<S extends z.ZodType, P extends z.ZodType>(
  spec: TriggerSpec<S, P>,
): TriggerDefinition<S, P> {
  return { ...spec, kind: "trigger", category: "trigger", ports: ["main"] };
}
