import { describe, expect, it } from "vitest";
import { createTestRegistry } from "../../test/registry";
import type { FlowDefinitionInput } from "@switchyard/contracts/flow";
import { FlowDefinition } from "@switchyard/contracts/flow";
import { validateFlow } from "./validate-flow";

const registry = createTestRegistry();
const node = (id: string, type: string, config: Record<string, unknown> = {}, extra: object = {}) => ({
  id,
  type,
  typeVersion: type === "test.set" ? 2 : 1,
  name: id,
  config,
  position: { x: 0, y: 0 },
  ...extra,
});
const edge = (from: string, to: string, fromPort = "main", toPort = "main", id?: string) => ({
  ...(id ? { id } : {}),
  from: { node: from, port: fromPort },
  to: { node: to, port: toPort },
});
const flow = (nodes: unknown[], edges: unknown[]): FlowDefinitionInput =>
  ({ nodes, edges }) as FlowDefinitionInput;
const codes = (f: unknown) => validateFlow(f, registry).map((p) => p.code);

describe("validateFlow", () => {
  it("accepts a valid flow", () => {
    const f = flow(
      [node("t", "test.trigger"), node("s", "test.set", { values: { a: "=item.x" } })],
      [edge("t", "s")],
    );
    expect(validateFlow(f, registry)).toEqual([]);
  });

  it("reports unknown node types and config that fails the type's schema, naming the field", () => {
    const f = flow(
      [node("t", "test.trigger"), node("u", "test.nope"), node("s", "test.slow", { ms: "fast" })],
      [edge("t", "u"), edge("t", "s")],
    );
    expect(validateFlow(f, registry)).toEqual([
      { code: "unknown_node_type", message: 'unknown node type "test.nope"', nodeId: "u" },
      {
        code: "config_invalid",
        message: 'node "s" field "ms": Invalid input: expected number, received string',
        nodeId: "s",
        field: "ms",
      },
    ]);
  });

  it("does not report schema issues of fields holding expressions, but checks their syntax with positions", () => {
    const f = flow(
      [
        node("t", "test.trigger"),
        node("s", "test.slow", { ms: "=item.delay" }),
        node("i", "test.if", { condition: "=item.a +" }),
      ],
      [edge("t", "s"), edge("t", "i")],
    );
    expect(validateFlow(f, registry)).toEqual([
      {
        code: "expression_invalid",
        message: 'node "i" field "condition" at position 9: Unexpected end of expression',
        nodeId: "i",
        field: "condition",
      },
    ]);
  });

  it("checks each interpolation of a template and reports empty ones", () => {
    const f = flow(
      [
        node("t", "test.trigger"),
        node("s", "test.set", { values: { msg: "ok {{ item.a }} bad {{ ) }} empty {{ }}" } }),
      ],
      [edge("t", "s")],
    );
    const problems = validateFlow(f, registry);
    expect(problems.map((p) => [p.code, p.field])).toEqual([
      ["expression_invalid", "values.msg"],
      ["expression_invalid", "values.msg"],
    ]);
    expect(problems[1]!.message).toMatch(/empty expression$/);
  });

  it("migrates configs saved with an older typeVersion and refuses newer ones", () => {
    const old = flow(
      [node("t", "test.trigger"), { ...node("s", "test.set"), typeVersion: 1, config: { set: { a: 1 } } }],
      [edge("t", "s")],
    );
    expect(validateFlow(old, registry)).toEqual([]);
    const newer = flow(
      [node("t", "test.trigger"), { ...node("s", "test.set", { values: {} }), typeVersion: 3 }],
      [edge("t", "s")],
    );
    expect(codes(newer)).toEqual(["unsupported_type_version"]);
  });

  it("reports dangling edges, unknown output and input ports, and edges into the trigger", () => {
    const f = flow(
      [node("t", "test.trigger"), node("i", "test.if", { condition: true }), node("m", "test.merge")],
      [
        edge("t", "i"),
        edge("i", "m", "maybe", "a"),
        edge("i", "m", "true", "c"),
        edge("i", "ghost"),
        edge("m", "t"),
      ],
    );
    expect(validateFlow(f, registry).map((p) => [p.code, p.edgeId ?? p.nodeId])).toEqual([
      ["unknown_port", "e1"],
      ["unknown_port", "e2"],
      ["dangling_edge", "e3"],
      ["unknown_port", "e3"],
      ["unknown_port", "e4"],
      ["cycle", "e4"],
    ]);
  });

  it("allows the error port only on nodes that route errors", () => {
    const base = [
      node("t", "test.trigger"),
      node("s", "test.set", { values: {} }),
      node("h", "test.set", { values: {} }),
    ];
    expect(codes(flow(base, [edge("t", "s"), edge("s", "h", "error")]))).toEqual(["unknown_port"]);
    const routed = [base[0], { ...base[1], onError: "route" }, base[2]];
    expect(codes(flow(routed, [edge("t", "s"), edge("s", "h", "error")]))).toEqual([]);
  });

  it("reports cycles unless they return into a loop node", () => {
    const plain = flow(
      [
        node("t", "test.trigger"),
        node("a", "test.set", { values: {} }),
        node("b", "test.set", { values: {} }),
      ],
      [edge("t", "a"), edge("a", "b"), edge("b", "a", "main", "main", "back")],
    );
    expect(validateFlow(plain, registry)).toEqual([
      {
        code: "cycle",
        message: 'edge from "b" to "a" closes a cycle that does not return into a loop node',
        edgeId: "back",
        nodeId: "a",
      },
    ]);
    const loop = flow(
      [
        node("t", "test.trigger"),
        node("l", "test.loop", { times: 2 }),
        node("b", "test.set", { values: {} }),
      ],
      [edge("t", "l"), edge("l", "b", "loop"), edge("b", "l")],
    );
    expect(validateFlow(loop, registry)).toEqual([]);
  });

  it("reports unreachable nodes, missing triggers, several triggers and duplicate ids", () => {
    expect(codes(flow([node("t", "test.trigger"), node("x", "test.merge")], []))).toEqual([
      "unreachable_node",
    ]);
    expect(codes(flow([node("x", "test.merge")], []))).toEqual(["no_trigger"]);
    expect(codes(flow([node("t", "test.trigger"), node("u", "test.trigger")], []))).toEqual([
      "multiple_triggers",
      "multiple_triggers",
    ]);
    const dup = flow(
      [node("t", "test.trigger"), node("s", "test.set", { values: {} }), node("s", "test.merge")],
      [edge("t", "s", "main", "main", "x"), edge("t", "s", "main", "main", "x")],
    );
    expect(codes(dup)).toEqual(["duplicate_node_id", "duplicate_edge_id", "duplicate_edge"]);
  });

  it("refuses a second edge between the same two ports, and an id that is another edge's default", () => {
    const nodes = [node("t", "test.trigger"), node("n", "test.set", { values: {} })];
    // Without ids, the second edge is "e1"; a third named "e0" takes the first one's default id.
    const twice = validateFlow(flow(nodes, [edge("t", "n"), edge("t", "n")]), registry);
    expect(twice).toEqual([
      {
        code: "duplicate_edge",
        message:
          'edge "e1" repeats edge "e0" from "t" (main) to "n" (main): every item would go through twice',
        edgeId: "e1",
      },
    ]);
    const clash = flow(
      [...nodes, node("m", "test.set", { values: {} })],
      [edge("t", "n"), edge("t", "m", "main", "main", "e0")],
    );
    expect(codes(clash)).toEqual(["duplicate_edge_id"]);
  });

  it("runs the extra check hook and turns a throwing hook into a problem", () => {
    const f = flow(
      [node("t", "test.trigger"), node("s", "test.set", { values: {}, agent_ref: "nope" })],
      [edge("t", "s")],
    );
    const flagged = validateFlow(f, registry, {
      extraCheck: (n) =>
        n.config.agent_ref === "nope"
          ? [{ code: "unknown_agent", message: "no agent nope", nodeId: n.id, field: "agent_ref" }]
          : [],
    });
    expect(flagged.map((p) => p.code)).toContain("unknown_agent");
    const broken = validateFlow(f, registry, {
      extraCheck: () => {
        throw new Error("boom");
      },
    });
    expect(broken.filter((p) => p.code === "check_failed").map((p) => p.message)).toEqual([
      "extra check failed: boom",
      "extra check failed: boom",
    ]);
  });

  it("reports a malformed flow document as flow_invalid problems with paths", () => {
    expect(validateFlow({ nodes: [{ id: 3 }] }, registry).every((p) => p.code === "flow_invalid")).toBe(true);
    expect(validateFlow("not a flow", registry)).toEqual([
      { code: "flow_invalid", message: expect.any(String), field: "" },
    ]);
  });
});

describe("validateFlow on random input", () => {
  it("never throws and never fails internally on 10 000 random graphs and configs", () => {
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const types = [
      "test.trigger",
      "test.set",
      "test.if",
      "test.merge",
      "test.loop",
      "test.slow",
      "test.wait",
      "nope",
    ];
    // Malformed values are rare, so most documents parse and the graph checks run on them.
    const rarely = <T>(bad: readonly unknown[], good: T): unknown => (rand() < 0.02 ? pick(bad) : good);
    const ports = ["main", "true", "false", "loop", "done", "error", "a", "b", "x"];
    const values = () =>
      pick<unknown>([
        "=item.a",
        "={{ item.b }}",
        "x {{ ( }}",
        "{{",
        "=",
        "==",
        "}}{{",
        3,
        -1,
        null,
        true,
        [1, "=$x"],
        { values: { a: "=1+" } },
        { times: "=2" },
        { ms: 5 },
        { condition: "=true" },
        "=(".repeat(50),
        "\u0000",
        { __proto__: { a: 1 } },
      ]);
    let total = 0;
    for (let i = 0; i < 10_000; i++) {
      const ids = Array.from({ length: Math.floor(rand() * 8) }, (_, k) => (rand() < 0.1 ? "dup" : `n${k}`));
      const nodes = ids.map((id) =>
        rand() < 0.01
          ? pick<unknown>([null, 1, "x", [], { id }])
          : {
              id,
              type: rarely(["", 7, null], pick(types)),
              typeVersion: rarely([0, 1.5, "1"], pick([1, 2, 3])),
              config:
                rand() < 0.01
                  ? values()
                  : { a: values(), values: values(), times: values(), condition: values(), ms: values() },
              onError: rarely(["bogus"], pick(["stop", "continue", "route"])),
              disabled: rand() < 0.1,
            },
      );
      const edges = Array.from({ length: Math.floor(rand() * 12) }, () =>
        rand() < 0.01
          ? pick<unknown>([null, {}, { from: {} }])
          : {
              id: rand() < 0.3 ? pick(["e1", "e2"]) : undefined,
              from: { node: pick([...ids, "ghost"]), port: rarely([""], pick(ports)) },
              to: { node: pick([...ids, "ghost"]), port: pick(ports) },
            },
      );
      const input =
        rand() < 0.02 ? pick<unknown>([undefined, null, 5, "{}", { nodes: "x" }]) : { nodes, edges };
      const problems = validateFlow(input, registry);
      expect(problems.some((p) => p.code === "internal")).toBe(false);
      if (FlowDefinition.safeParse(input).success) total++;
    }
    // Most generated documents are well-formed flows, so the graph checks really ran.
    expect(total).toBeGreaterThan(5000);
  }, 60_000);
});
