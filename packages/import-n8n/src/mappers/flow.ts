/** Wait, No Operation, Stop and Error, Execute Workflow. */
import { locatorValue, type Mapper, obj, str } from "./types";

export const wait: Mapper = (ctx) => {
  const p = ctx.params;
  const resume = str(p.resume) ?? "timeInterval";
  if (resume === "timeInterval") {
    const amount = p.amount ?? 1;
    const unit = str(p.unit) ?? "hours";
    if (!["seconds", "minutes", "hours", "days"].includes(unit))
      return { unsupported: `the wait unit "${unit}"` };
    return { type: "flow.wait", config: { mode: "delay", amount: ctx.value(amount, "amount"), unit } };
  }
  if (resume === "specificTime")
    return { type: "flow.wait", config: { mode: "until", until: ctx.value(p.dateTime, "dateTime") } };
  return { unsupported: `a Wait that resumes on "${resume}" (only time-based waits are translated)` };
};

export const noop: Mapper = () => ({ type: "flow.noop", config: {} });

export const stopAndError: Mapper = (ctx) => {
  const p = ctx.params;
  if (p.errorType === "errorObject") {
    ctx.loss("errorObject", "the error object became the error message (its JSON text)");
    const o = p.errorObject;
    const message =
      typeof o === "string" && o.startsWith("=") ? ctx.value(o, "errorObject") : JSON.stringify(o ?? {});
    return { type: "flow.stop", config: { outcome: "error", message } };
  }
  const message = ctx.value(str(p.errorMessage) || "Stopped by the workflow", "errorMessage");
  return { type: "flow.stop", config: { outcome: "error", message } };
};

export const executeWorkflow: Mapper = (ctx) => {
  const p = ctx.params;
  const source = str(p.source) ?? "database";
  if (source !== "database")
    return { unsupported: `a sub-workflow from "${source}" (only stored workflows are translated)` };
  const workflowId = String(locatorValue(p.workflowId) ?? "");
  if (p.mode === "each") ctx.loss("mode", "the sub-flow runs once with all items (n8n ran it once per item)");
  if (obj(p.options).waitForSubWorkflow === false)
    ctx.loss("options.waitForSubWorkflow", "the caller always waits for the sub-flow");
  const mapped = ctx.subflow(workflowId);
  if (mapped) return { type: "flow.call", config: { flowId: mapped } };
  ctx.report.problem(
    "subflow_unresolved",
    ctx.node,
    "workflowId",
    `calls n8n workflow "${workflowId}": import that workflow too and set flowId to its Switchyard flow id`,
  );
  return { type: "flow.call", config: { flowId: workflowId || "unset" } };
};
