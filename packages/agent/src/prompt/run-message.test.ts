import { describe, expect, it } from "vitest";
import { renderHandoff } from "./handoff";
import { buildRunMessage, fenceFor, JSON_RESPONSE_INSTRUCTION } from "./run-message";

describe("buildRunMessage", () => {
  it("puts the fenced data block, the JSON instruction and the prompt in order, joined by blank lines", () => {
    const msg = buildRunMessage({
      prompt: "Who is the sender?",
      inputContext: { from: "dana@harbor.example" },
      responseFormat: { type: "json" },
    });
    expect(msg).toBe(
      [
        'Here is the data from the previous step:\n```json\n{\n  "from": "dana@harbor.example"\n}\n```\nUse this data to complete the task described below.',
        JSON_RESPONSE_INSTRUCTION,
        "Who is the sender?",
      ].join("\n\n"),
    );
  });

  it("omits the data block when the input context is null", () => {
    expect(buildRunMessage({ prompt: "Hi", inputContext: null })).toBe("Hi");
  });

  it("appends the schema to the JSON instruction when given", () => {
    const msg = buildRunMessage({
      prompt: "p",
      responseFormat: { type: "json", schema: { type: "object" } },
    });
    expect(msg).toContain(
      `${JSON_RESPONSE_INSTRUCTION}\nThe object must match this JSON Schema:\n{\n  "type": "object"\n}`,
    );
  });

  it("uses a fence longer than any backtick run in the data", () => {
    const msg = buildRunMessage({ prompt: "p", inputContext: { body: "```` inside ```" } });
    expect(fenceFor("```` inside ```")).toBe("`````");
    expect(msg).toContain("`````json\n");
    expect(msg.split("`````").length).toBe(3);
  });

  it("caps the data at 50 000 bytes on a character boundary and marks it", () => {
    const big = { text: "😀".repeat(20_000) };
    const msg = buildRunMessage({ prompt: "p", inputContext: big });
    const body = msg.slice(msg.indexOf("```json\n") + 8, msg.lastIndexOf("\n```"));
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(50_000);
    expect(Buffer.byteLength(body)).toBeGreaterThan(49_990);
    expect(body.endsWith("\n…(truncated)")).toBe(true);
    expect(body).not.toContain("\uFFFD");
    expect(Buffer.from(body).toString("utf8")).toBe(body);
  });
});

describe("renderHandoff", () => {
  it("renders the task then each non-empty field with its label", () => {
    expect(
      renderHandoff({
        prompt: "Find Dana's role.",
        objective: "Address the reply correctly",
        evidence: ["From: dana@harbor.example", ""],
        constraints: [],
        must_not_assume: ["that Dana is the CEO"],
        expected_output: "One sentence.",
        citation_requirement: "retrieval_hits",
        blocking: true,
      }),
    ).toBe(
      "Task:\nFind Dana's role.\n\nObjective:\nAddress the reply correctly\n\nEvidence:\n- From: dana@harbor.example" +
        "\n\nMust not assume:\n- that Dana is the CEO\n\nExpected output:\nOne sentence.\n\nCitation requirement:\nretrieval_hits",
    );
    expect(renderHandoff({ prompt: "Just this." })).toBe("Task:\nJust this.");
  });
});
