/**
 * A small registry of test node types used by the engine's tests and fixtures. The real node types live
 * in packages/nodes; these only exercise the executor's rules.
 */
import { z } from "zod";
import type { AnyNodeType, Item, NodeDefinition, NodeRegistry, TriggerDefinition } from "../src/contract";
import { NodeError, NonRetryableError } from "../src/errors";

function action<S extends z.ZodType>(
  def: Omit<NodeDefinition<S>, "kind" | "title" | "description" | "category" | "icon" | "inputs"> & {
    inputs?: readonly string[];
  },
): NodeDefinition {
  return {
    kind: "action",
    title: def.type,
    description: `test node ${def.type}`,
    category: "test",
    icon: "test",
    inputs: def.inputs ?? ["main"],
    ...def,
  } as unknown as NodeDefinition;
}

export interface TestRegistry extends NodeRegistry {
  /** Calls per node id (attempts included). */
  calls: Map<string, number>;
  /** Highest number of test.slow nodes running at once. */
  maxConcurrent: number;
}

export function createTestRegistry(): TestRegistry {
  const calls = new Map<string, number>();
  let running = 0;
  const count = (id: string) => {
    const n = (calls.get(id) ?? 0) + 1;
    calls.set(id, n);
    return n;
  };

  const trigger: TriggerDefinition = {
    kind: "trigger",
    type: "test.trigger",
    typeVersion: 1,
    title: "Test trigger",
    description: "starts a test run",
    category: "trigger",
    icon: "test",
    ports: ["main"],
    channel: "manual",
    config: z.object({}),
    example: {},
    payload: z.record(z.string(), z.unknown()),
  };

  const types: AnyNodeType[] = [
    trigger,
    action({
      type: "test.set",
      typeVersion: 2,
      ports: ["main"],
      runMode: "perItem",
      config: z.object({ values: z.record(z.string(), z.unknown()) }),
      example: { values: { a: 1 } },
      // Version 1 called the field `set`.
      migrate: (config) => ({ values: (config as { set?: unknown }).set ?? {} }),
      execute: async ({ config, input, ctx }) => {
        count(ctx.nodeId);
        return { items: input.map((i) => ({ json: { ...i.json, ...config.values } })) };
      },
    }),
    action({
      type: "test.split",
      typeVersion: 1,
      ports: ["main"],
      runMode: "once",
      config: z.object({ field: z.string() }),
      example: { field: "list" },
      execute: async ({ config, input }) => ({
        items: input.flatMap((i) => {
          const list = i.json[config.field];
          return Array.isArray(list) ? list.map((v) => ({ json: v as Record<string, unknown> })) : [];
        }),
      }),
    }),
    action({
      type: "test.if",
      typeVersion: 1,
      ports: ["true", "false"],
      runMode: "perItem",
      config: z.object({ condition: z.boolean() }),
      example: { condition: true },
      execute: async ({ config, input }) => ({ port: config.condition ? "true" : "false", items: input }),
    }),
    action({
      type: "test.merge",
      typeVersion: 1,
      ports: ["main"],
      inputs: ["a", "b"],
      runMode: "once",
      config: z.object({}),
      example: {},
      execute: async ({ input }) => ({ items: input }),
    }),
    action({
      type: "test.fail-n-times",
      typeVersion: 1,
      ports: ["main"],
      runMode: "once",
      config: z.object({ times: z.int().min(0), retryable: z.boolean().default(true) }),
      example: { times: 1 },
      execute: async ({ config, input, ctx }) => {
        const n = count(ctx.nodeId);
        if (n <= config.times) {
          if (!config.retryable) throw new NonRetryableError("input_invalid", `refused on call ${n}`);
          throw new NodeError("http_failed", `failed on call ${n}`);
        }
        return { items: input.map((i) => ({ json: { ...i.json, calls: n } })) };
      },
    }),
    action({
      type: "test.fail-item",
      typeVersion: 1,
      ports: ["main"],
      runMode: "perItem",
      config: z.object({ fail: z.boolean() }),
      example: { fail: false },
      execute: async ({ config, input }) => {
        if (config.fail) throw new Error(`item ${JSON.stringify(input[0]?.json)} rejected`);
        return { items: input };
      },
    }),
    action({
      type: "test.slow",
      typeVersion: 1,
      ports: ["main"],
      runMode: "once",
      config: z.object({ ms: z.int().min(0) }),
      example: { ms: 10 },
      execute: async ({ config, input, ctx }) => {
        count(ctx.nodeId);
        running++;
        registry.maxConcurrent = Math.max(registry.maxConcurrent, running);
        try {
          await new Promise<void>((resolve, reject) => {
            const t = setTimeout(resolve, config.ms);
            ctx.signal.addEventListener("abort", () => {
              clearTimeout(t);
              reject(ctx.signal.reason);
            });
          });
        } finally {
          running--;
        }
        return { items: input };
      },
    }),
    action({
      type: "test.loop",
      typeVersion: 1,
      ports: ["loop", "done"],
      runMode: "once",
      loop: true,
      config: z.object({ times: z.int().min(0), key: z.string().default("iteration") }),
      example: { times: 2 },
      execute: async ({ config, input, ctx }) => {
        count(ctx.nodeId);
        const iteration = Number(input[0]?.json[config.key] ?? 0);
        if (iteration >= config.times) return { outputs: { done: input } as Record<string, Item[]> };
        return {
          outputs: { loop: input.map((i): Item => ({ json: { ...i.json, [config.key]: iteration + 1 } })) },
        };
      },
    }),
    action({
      // Outputs one item nested `levels` deep (checkpointing past JSON's stack limit).
      type: "test.deep",
      typeVersion: 1,
      ports: ["main"],
      runMode: "once",
      config: z.object({ levels: z.number().int() }),
      example: { levels: 3 },
      execute: async ({ config }) => {
        let deep: unknown = 1;
        for (let i = 0; i < config.levels; i++) deep = { a: deep };
        return { items: [{ json: { deep } }] };
      },
    }),
    action({
      type: "test.wait",
      typeVersion: 1,
      ports: ["main"],
      runMode: "once",
      config: z.object({ until: z.string() }),
      example: { until: "2030-01-01T00:00:00Z" },
      execute: async ({ config, input }) => ({ wait: { until: config.until }, items: input }),
    }),
  ];
  const byType = new Map(types.map((t) => [t.type, t]));
  const registry: TestRegistry = { calls, maxConcurrent: 0, get: (type) => byType.get(type) };
  return registry;
}
