/** IF, Switch, Merge. */
import { type FilterValue, filterToCondition, v1ConditionsToFilter } from "../conditions";
import { type Mapper, obj, str } from "./types";

export const ifNode: Mapper = (ctx) => {
  const p = ctx.params;
  const filter =
    ctx.n8n.typeVersion >= 2
      ? (p.conditions as FilterValue | undefined)
      : v1ConditionsToFilter(obj(p.conditions) as never, str(p.combineOperation));
  const condition = filterToCondition(filter, "conditions", ctx);
  if (condition === undefined) return { unsupported: "its condition could not be translated" };
  return { type: "logic.if", config: { condition }, outputs: ["true", "false"] };
};

const MAX_CASES = 10;

export const switchNode: Mapper = (ctx) => {
  const p = ctx.params;
  if (ctx.n8n.typeVersion < 3)
    return {
      unsupported: "Switch before version 3 is not translated; open and save it in a current n8n first",
    };
  if (p.mode === "expression")
    return { unsupported: "a Switch in expression mode (output index computed) has no equivalent" };
  const rules = (obj(p.rules).values as Record<string, unknown>[] | undefined) ?? [];
  if (rules.length === 0) return { unsupported: "a Switch without rules" };
  if (rules.length > MAX_CASES)
    return { unsupported: `a Switch with ${rules.length} rules (at most ${MAX_CASES})` };
  const cases: { name: string; condition: string }[] = [];
  for (const [i, rule] of rules.entries()) {
    const condition = filterToCondition(rule.conditions as FilterValue, `rules.values.${i}.conditions`, ctx);
    if (condition === undefined) return { unsupported: `rule ${i + 1}'s condition could not be translated` };
    const name = (rule.renameOutput ? str(rule.outputKey) : undefined) || `case ${i + 1}`;
    cases.push({ name: name.slice(0, 60), condition });
  }
  const options = obj(p.options);
  if (options.allMatchingOutputs)
    ctx.loss("options.allMatchingOutputs", "an item goes to the first matching case only");
  if (options.ignoreCase) ctx.loss("options.ignoreCase", "comparisons stay case-sensitive");
  const outputs = cases.map((_, i) => `case${i + 1}`);
  const fallback = options.fallbackOutput;
  // "extra": n8n adds a last output for the rest — our default port. A rule's index: its edges get default too.
  if (fallback === "extra") outputs.push("default");
  else if (typeof fallback === "number")
    ctx.loss(
      "options.fallbackOutput",
      `unmatched items leave by the default port; connect it like output ${fallback}`,
    );
  return { type: "logic.switch", config: { cases }, outputs };
};

export const merge: Mapper = (ctx) => {
  const p = ctx.params;
  const mode = str(p.mode) ?? "append";
  const inputs = ["a", "b"];
  if (mode === "append") {
    if (typeof p.numberInputs === "number" && p.numberInputs > 2)
      return { unsupported: `a Merge with ${p.numberInputs} inputs (ours has two)` };
    return { type: "flow.merge", config: { mode: "append" }, inputs };
  }
  // v3 says combine + combineBy; v2 says combine + combinationMode / mergeByKey.
  // Both default to matching fields when absent (n8n leaves defaults out of exports).
  const legacy = str(p.combinationMode) ?? "mergeByFields";
  const by = str(p.combineBy) ?? (legacy === "mergeByFields" ? "combineByFields" : legacy);
  if (mode === "combine" && by === "combineByFields") {
    const fields =
      str(p.fieldsToMatchString)
        ?.split(",")
        .map((f) => f.trim())
        .filter(Boolean) ??
      ((obj(p.mergeByFields).values as { field1?: string; field2?: string }[] | undefined) ?? []).map((v) =>
        v.field1 === v.field2 ? v.field1 : undefined,
      );
    if (fields.length !== 1 || !fields[0])
      return { unsupported: "a Merge on several (or differently named) fields: ours joins on one field" };
    const join = str(p.joinMode) ?? "keepMatches";
    if (join !== "keepMatches" && join !== "enrichInput1")
      return { unsupported: `the join mode "${join}" has no equivalent` };
    return {
      type: "flow.merge",
      config: { mode: "byKey", key: fields[0], join: join === "keepMatches" ? "inner" : "left" },
      inputs,
    };
  }
  return { unsupported: `the Merge mode "${mode}${by ? ` / ${by}` : ""}" has no equivalent` };
};
