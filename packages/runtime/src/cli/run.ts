import type { Backend } from "./backend";
import { type CliIo, clientOptions, parse, showHelp, printJson, table, UsageError } from "./io";

export const runHelp = `Usage: switchyard run <command> [options]

  run list [--flow ID] [--status S] [--channel C] [--since ISO] [--until ISO] [--limit N] [--cursor C] [--json]
                          runs, newest first (S: queued running waiting succeeded failed cancelled timed_out)
  run show <id> [--json]  a run with its steps
  run cancel <id> [--json]
  run rerun <id> [--json] run again with the same payload, flow version and channel

Client options: --url URL --api-key KEY (or SWITCHYARD_URL, SWITCHYARD_API_KEY); default: local data dir.
Exit codes: 0 ok, 1 failure, 2 usage error.`;

// biome-ignore lint/suspicious/noExplicitAny: answers are the API's JSON, documented in docs/api.md
type Json = any;

const duration = (ms: number | null) =>
  ms == null ? null : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;

export function runFailed(run: { status: string }): boolean {
  return run.status !== "succeeded";
}

/** A finished or running run for people: one header line, the error if any, then the steps. */
export function printRun(io: CliIo, run: Json): void {
  io.out(
    `run ${run.id} of flow ${run.flowId} "${run.flowName}" (version ${run.flowVersion}): ${run.status}, ${run.channel}, ${duration(run.durationMs) ?? "not finished"}`,
  );
  if (run.error)
    io.out(`error${run.error.nodeId ? ` in node ${run.error.nodeId}` : ""}: ${run.error.message}`);
  if (run.steps.length) {
    io.out(
      table(
        ["STEP", "STATUS", "PORT", "ATTEMPT", "DURATION", "ERROR"],
        run.steps.map((s: Json) => [
          s.stepId,
          s.status,
          s.port,
          s.attempt,
          duration(s.durationMs),
          s.error?.message ?? "",
        ]),
      ),
    );
  }
}

export async function runCommand(
  args: string[],
  open: (values: { url?: string; "api-key"?: string }) => Promise<Backend>,
  io: CliIo,
): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help") return showHelp(io, runHelp, sub ? 0 : 2);
  if (!["list", "show", "cancel", "rerun"].includes(sub))
    throw new UsageError(`unknown run command '${sub}'`);
  const { values, positionals } = parse(rest, {
    ...clientOptions,
    flow: { type: "string" },
    status: { type: "string" },
    channel: { type: "string" },
    since: { type: "string" },
    until: { type: "string" },
    limit: { type: "string" },
    cursor: { type: "string" },
  });
  if (values.help) return showHelp(io, runHelp, 0);
  if (sub === "list" && positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (sub !== "list" && positionals.length !== 1) throw new UsageError(`run ${sub} takes one run id`);
  const id = positionals[0]!;
  const json = values.json ?? false;
  const backend = await open(values);
  try {
    if (sub === "list") {
      const { status, channel, since, until, limit, cursor } = values;
      const { body } = await backend.call("listRuns", {
        query: { flowId: values.flow, status, channel, since, until, limit, cursor },
      });
      const page = body as Json;
      if (json) printJson(io, page);
      else if (page.runs.length === 0) io.out("no runs");
      else {
        io.out(
          table(
            ["ID", "STATUS", "CHANNEL", "FLOW", "CREATED", "DURATION"],
            page.runs.map((r: Json) => [
              r.id,
              r.status,
              r.channel,
              r.flowName,
              r.createdAt,
              duration(r.durationMs),
            ]),
          ),
        );
        if (page.nextCursor) {
          // The cursor only means something with the same filters (docs/api.md), so the hint repeats them.
          const same = Object.entries({ flow: values.flow, status, channel, since, until, limit })
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => ` --${k} ${/^[\w:.,@+-]+$/.test(v!) ? v : `'${v!.replaceAll("'", "'\\''")}'`}`)
            .join("");
          io.out(`more: switchyard run list${same} --cursor ${page.nextCursor}`);
        }
      }
      return 0;
    }
    if (sub === "show") {
      const { body } = await backend.call("getRun", { params: { id } });
      if (json) printJson(io, body);
      else printRun(io, body);
      return 0;
    }
    if (sub === "cancel") {
      const { body } = await backend.call("cancelRun", { params: { id } });
      const r = body as Json;
      if (json) printJson(io, r);
      else
        io.out(
          r.result === "cancelled" ? `run ${id} cancelled` : `run ${id} is being stopped at its next step`,
        );
      return 0;
    }
    const { body } = await backend.call("rerunRun", { params: { id } });
    const r = body as Json;
    if (json) printJson(io, r);
    else io.out(`run ${r.runId} started (re-run of ${id}, flow version ${r.flowVersion})`);
    return 0;
  } finally {
    await backend.close();
  }
}
