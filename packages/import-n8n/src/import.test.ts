import { describe, expect, it } from "vitest";
import { importN8nWorkflow, N8nImportError } from "./import";

const trigger = {
  name: "Start",
  type: "n8n-nodes-base.manualTrigger",
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
};
const wf = (nodes: object[], connections: object = {}) => ({
  name: "T",
  nodes: [trigger, ...nodes],
  connections,
});
const node = (name: string, type: string, parameters: object, extra: object = {}) => ({
  name,
  type: `n8n-nodes-base.${type}`,
  typeVersion: 1,
  position: [200, 40],
  parameters,
  ...extra,
});
const main = (...targets: [string, number?][][]) => ({
  main: targets.map((list) => list.map(([n, index]) => ({ node: n, type: "main", index: index ?? 0 }))),
});

describe("importing an n8n workflow", () => {
  it("refuses what is not an n8n workflow, naming the place", () => {
    expect(() => importN8nWorkflow("{")).toThrow(N8nImportError);
    expect(() => importN8nWorkflow({ nodes: [{ name: "A", type: 3 }] })).toThrow(
      "not an n8n workflow: nodes.0.type: Invalid input: expected string, received number",
    );
    expect(() => importN8nWorkflow(wf([{ ...trigger, position: [1, 1] }]))).toThrow(
      'not an n8n workflow: nodes.1.name: "Start" is used twice',
    );
  });

  it("turns schedule rules into cron expressions and says what a rule loses", () => {
    const cron = (interval: object[]) => {
      const { flow, report } = importN8nWorkflow({
        nodes: [{ ...trigger, type: "n8n-nodes-base.scheduleTrigger", parameters: { rule: { interval } } }],
      });
      return [flow.nodes[0]?.config.expression, report.losses.map((l) => l.message)];
    };
    expect(cron([{ field: "minutes", minutesInterval: 15 }])[0]).toBe("*/15 * * * *");
    expect(cron([{ field: "days", triggerAtHour: 9, triggerAtMinute: 30 }])[0]).toBe("30 9 * * *");
    expect(cron([{ field: "weeks", weeksInterval: 2, triggerAtDay: [1, 5], triggerAtHour: 8 }])).toEqual([
      "0 8 * * 1,5",
      [
        "every 2 weeks became every week: cron has no week interval",
        "a schedule run's item is { scheduledAt, firedAt, expression, timezone, missed }, not n8n's date fields",
      ],
    ]);
    expect(cron([{ field: "cronExpression", expression: "0 */2 * * *" }])[0]).toBe("0 */2 * * *");
  });

  it("maps IF outputs to true/false, the Switch fallback to default and an error output to the error port", () => {
    const { flow } = importN8nWorkflow(
      wf(
        [
          node(
            "Check",
            "if",
            { conditions: { conditions: [] } },
            { typeVersion: 2, onError: "continueErrorOutput" },
          ),
          node("Yes", "noOp", {}),
          node("No", "noOp", {}),
          node("Failed", "noOp", {}),
        ],
        { Start: main([["Check"]]), Check: main([["Yes"]], [["No"]], [["Failed"]]) },
      ),
    );
    expect(flow.nodes.find((n) => n.id === "check")).toMatchObject({
      onError: "route",
      config: { condition: "=true" },
    });
    expect(flow.edges.map((e) => `${e.from.node}.${e.from.port}→${e.to.node}`)).toEqual([
      "start.main→check",
      "check.true→yes",
      "check.false→no",
      "check.error→failed",
    ]);
  });

  it("drops a connection listed twice, reporting it, so no item goes through twice", () => {
    const { flow, report } = importN8nWorkflow(
      // One output listing the same target twice.
      wf([node("N", "noOp", {})], { Start: main([["N"], ["N"]]) }),
    );
    expect(flow.edges.map((e) => `${e.from.node}.${e.from.port}→${e.to.node}`)).toEqual(["start.main→n"]);
    expect(report.problems).toEqual([
      expect.objectContaining({
        code: "connection_dropped",
        message:
          'connection to "N" dropped: it repeats an earlier connection between the same outputs and inputs',
      }),
    ]);
  });

  it("keeps an unsupported node as a placeholder with its parameters and keeps its edges", () => {
    const { flow, report } = importN8nWorkflow(
      wf(
        [
          node("Merge", "merge", { mode: "combine", combineBy: "combineByPosition" }, { typeVersion: 3 }),
          node("After", "noOp", {}),
        ],
        { Start: main([["Merge", 1]]), Merge: main([["After"]]) },
      ),
    );
    expect(flow.nodes[1]).toMatchObject({
      id: "merge",
      type: "import.placeholder",
      config: {
        source: "n8n",
        originalType: "n8n-nodes-base.merge",
        originalTypeVersion: 3,
        reason: 'the Merge mode "combine / combineByPosition" has no equivalent',
        parameters: { mode: "combine", combineBy: "combineByPosition" },
      },
    });
    expect(flow.edges.map((e) => `${e.from.node}.${e.from.port}→${e.to.node}.${e.to.port}`)).toEqual([
      "start.main→merge.out1",
      "merge.main→after.main",
    ]);
    expect(report.problems).toEqual([
      {
        code: "unsupported_node",
        node: "Merge",
        message: 'the Merge mode "combine / combineByPosition" has no equivalent; kept as a placeholder',
      },
    ]);
  });

  it("leaves an unmapped credential empty and reports it; a mapped one is used by name or id", () => {
    const pg = node(
      "DB",
      "postgres",
      { operation: "executeQuery", query: "SELECT 1" },
      { typeVersion: 2.5, credentials: { postgres: { id: "7", name: "Prod" } } },
    );
    const unmapped = importN8nWorkflow(wf([pg], { Start: main([["DB"]]) }));
    expect(unmapped.flow.nodes[1]?.config.credentialId).toBeUndefined();
    expect(unmapped.report.problems).toEqual([
      {
        code: "credential_unresolved",
        node: "DB",
        field: "credentialId",
        message:
          'uses the n8n postgres credential "Prod" (id 7): create or pick a Switchyard credential for it (secrets are not exported)',
      },
    ]);
    expect(
      importN8nWorkflow(wf([pg]), { credentials: { "7": "cred-a" } }).flow.nodes[1]?.config.credentialId,
    ).toBe("cred-a");
    expect(
      importN8nWorkflow(wf([pg]), { credentials: { Prod: "cred-b" } }).flow.nodes[1]?.config.credentialId,
    ).toBe("cred-b");
  });

  it("keeps names, positions, disabled, retries, notes and the time zone", () => {
    const { flow } = importN8nWorkflow({
      ...wf([
        node(
          "Call it",
          "noOp",
          {},
          {
            disabled: true,
            retryOnFail: true,
            maxTries: 4,
            waitBetweenTries: 2000,
            notes: "Asks the CRM",
            position: [300, 120],
          },
        ),
      ]),
      settings: { timezone: "Europe/Berlin" },
    });
    expect(flow.nodes[1]).toMatchObject({
      id: "call_it",
      name: "Call it",
      position: { x: 300, y: 120 },
      disabled: true,
      retry: { maxAttempts: 4, backoff: "fixed", delayMs: 2000 },
    });
    expect(flow.notes).toEqual([
      {
        id: "note_call_it",
        text: "Asks the CRM",
        position: { x: 300, y: 240 },
        size: { width: 240, height: 120 },
      },
    ]);
    expect(flow.settings).toEqual({ timezone: "Europe/Berlin" });
  });

  it("reports the n8n globals a Code node uses that the sandbox lacks", () => {
    const { report } = importN8nWorkflow(
      wf([
        node(
          "JS",
          "code",
          { jsCode: "const k = $env.KEY;\nreturn [{ json: { k, at: $now.toISO() } }];" },
          { typeVersion: 2 },
        ),
      ]),
    );
    expect(report.problems.map((p) => p.message)).toEqual([
      "the code uses environment variables ($env, $vars), which the sandbox does not provide; rewrite that part",
      "the code uses Luxon dates and n8n helpers ($now, DateTime, $jmespath), which the sandbox does not provide; rewrite that part",
    ]);
  });
});
