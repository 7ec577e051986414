import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AnyNodeType } from "@switchyard/engine";
import { describe, expect, it } from "vitest";
import { checkJsonSchema, undescribed } from "./__tests__/json-schema-check";
import { catalogue, createRegistry, nodeTypes, registry } from "./catalogue";

describe("catalogue", () => {
  const entries = catalogue();

  it("registers every node and trigger type the package defines, each id once", async () => {
    // Every definition exported by a module of this package: a new node file needs no edit to this test.
    const src = path.dirname(fileURLToPath(import.meta.url));
    const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter(
      (f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.startsWith("__tests__"),
    );
    const modules: Record<string, unknown>[] = await Promise.all(files.map((f) => import(path.join(src, f))));
    const defined = new Set(
      modules.flatMap((m) =>
        Object.values(m).filter(
          (v): v is AnyNodeType =>
            typeof v === "object" &&
            v !== null &&
            "kind" in v &&
            (v.kind === "action" || v.kind === "trigger"),
        ),
      ),
    );
    expect(defined.size).toBeGreaterThanOrEqual(19);
    expect([...defined].filter((t) => !nodeTypes.includes(t)).map((t) => t.type)).toEqual([]);
    expect(new Set(entries.map((e) => e.type)).size).toBe(nodeTypes.length);
    expect(entries.map((e) => e.type)).toEqual(
      expect.arrayContaining(["trigger.manual", "trigger.webhook", "trigger.email", "trigger.cron", "agent"]),
    );
  });

  it("is plain JSON", () => {
    expect(JSON.parse(JSON.stringify(entries))).toEqual(entries);
  });

  it.each(nodeTypes.map((t) => [t.type, t] as const))(
    "%s: example parses with its zod schema",
    (_type, t) => {
      const parsed = t.config.safeParse(t.example);
      expect(parsed.error?.issues ?? []).toEqual([]);
    },
  );

  it.each(entries.map((e) => [e.type, e] as const))("%s: example conforms to its JSON Schema", (_type, e) => {
    expect(checkJsonSchema(e.configSchema, e.example)).toEqual([]);
  });

  it.each(entries.map((e) => [e.type, e] as const))(
    "%s: every config field has a description",
    (_type, e) => {
      expect(undescribed(e.configSchema)).toEqual([]);
    },
  );

  it("the JSON Schema check catches a missing required key", () => {
    const webhook = entries.find((e) => e.type === "trigger.webhook")!;
    expect(checkJsonSchema(webhook.configSchema, { methods: ["POST"] })).toEqual(["$.path: required"]);
  });

  it("the description check catches an unlabelled field", () => {
    expect(undescribed({ type: "object", properties: { a: { type: "string" } } })).toEqual(["$.a"]);
  });

  it("gives actions their inputs and triggers none", () => {
    expect(entries.find((e) => e.type === "flow.merge")?.inputs).toEqual(["a", "b"]);
    expect(entries.find((e) => e.type === "logic.if")?.inputs).toEqual(["main"]);
    expect(entries.find((e) => e.type === "trigger.cron")).toMatchObject({
      kind: "trigger",
      inputs: [],
      ports: ["main"],
    });
  });

  it("looks types up in the registry", () => {
    expect(registry.get("logic.if")?.title).toBe("If");
    expect(registry.get("nope")).toBeUndefined();
  });

  it("refuses duplicate type ids", () => {
    expect(() => createRegistry([...nodeTypes, nodeTypes[0]!])).toThrow(
      'duplicate node type "trigger.manual"',
    );
  });
});
