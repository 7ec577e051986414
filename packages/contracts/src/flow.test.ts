import { describe, expect, it } from "vitest";
import { flowJsonSchema, parseFlow } from "./flow";

describe("flow file format", () => {
  it("parses a minimal flow and fills defaults", () => {
    const parsed = parseFlow('{"nodes":[{"id":"t","type":"test.trigger"}]}');
    expect(parsed).toEqual({
      ok: true,
      flow: {
        nodes: [
          {
            id: "t",
            type: "test.trigger",
            typeVersion: 1,
            name: "",
            config: {},
            position: { x: 0, y: 0 },
            onError: "stop",
          },
        ],
        edges: [],
        settings: { timezone: "UTC", maxRunMs: 300_000, concurrency: 4 },
        notes: [],
      },
    });
  });

  it("reports bad JSON and bad shapes with paths instead of throwing", () => {
    expect(parseFlow("{nope")).toMatchObject({ ok: false, issues: [{ path: "" }] });
    const bad = parseFlow({
      nodes: [{ id: "a", type: "x", onError: "explode", retry: { maxAttempts: 0, delayMs: 1 } }],
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.issues.map((i) => i.path).sort()).toEqual(["nodes.0.onError", "nodes.0.retry.maxAttempts"]);
  });

  it("refuses an unknown time zone in the settings, naming it, and takes an IANA one", () => {
    const flow = (timezone: string) => ({ nodes: [{ id: "t", type: "x" }], settings: { timezone } });
    expect(parseFlow(flow("Mars/Olympus"))).toMatchObject({
      ok: false,
      issues: [
        {
          path: "settings.timezone",
          message: 'Unknown time zone "Mars/Olympus"; use an IANA name such as "Europe/Berlin" or "UTC"',
        },
      ],
    });
    expect(parseFlow(flow("Europe/Berlin")).ok).toBe(true);
  });

  it("publishes a JSON Schema where fields with defaults are optional", () => {
    const schema = flowJsonSchema() as {
      required: string[];
      properties: Record<string, { items?: { required?: string[] } }>;
    };
    expect(schema.required).toEqual(["nodes"]);
    expect(schema.properties.nodes?.items?.required).toEqual(["id", "type"]);
    expect(Object.keys(schema.properties)).toEqual(["nodes", "edges", "settings", "notes", "pinData"]);
    expect((schema.properties.settings as { default?: unknown }).default).toEqual({
      timezone: "UTC",
      maxRunMs: 300_000,
      concurrency: 4,
    });
  });
});
