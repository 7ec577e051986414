import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { registry } from "@switchyard/nodes";
import { checkFlowFile } from "../trpc/rest/flow-file";
import type { Backend } from "./backend";
import { CliError, type CliIo, clientOptions, parse, showHelp, printJson, table, UsageError } from "./io";
import { importN8nFiles, pairs } from "./flow-import-n8n";
import { printRun, runFailed } from "./run";

export const flowHelp = `Usage: switchyard flow <command> [options]

  flow list [--json]                       list flows
  flow import <file|dir>... [--activate] [--json]
                                           create flows from flow files (a folder imports its *.json)
  flow import --from n8n <file> [--credential N8N=ID]... [--workflow N8N_ID=FLOW_ID]... [--activate] [--json]
                                           translate an n8n workflow export into a flow and print the
                                           import report (mappings, losses, problems to resolve)
  flow export <id> [--version N]           print a flow as a flow file
  flow validate <file|dir>... [--json]     check flow files offline (no server, no data dir)
  flow activate <id> | flow deactivate <id>
  flow run <id> [--payload JSON|@file] [--wait] [--timeout MS] [--json]
                                           run a flow now; --wait waits for the result

Client options: --url URL --api-key KEY (or SWITCHYARD_URL, SWITCHYARD_API_KEY) talk to a server;
without them the command works on the local data dir (SWITCHYARD_DATA_DIR).
Exit codes: 0 ok, 1 failure (invalid file, refused request, failed run), 2 usage error.`;

/** Files named on the command line; a folder stands for the *.json files in it, in name order. */
function expandFiles(args: string[]): string[] {
  if (args.length === 0) throw new UsageError("name at least one flow file");
  return args.flatMap((arg) => {
    let isDir = false;
    try {
      isDir = statSync(arg).isDirectory();
    } catch {
      // Reading it reports the problem, per file.
    }
    if (!isDir) return [arg];
    const files = readdirSync(arg)
      .filter((f) => f.endsWith(".json"))
      .sort();
    if (files.length === 0) throw new CliError(`${arg}: no .json files in this folder`);
    return files.map((f) => path.join(arg, f));
  });
}

function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new CliError(
      `${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CliError(`${file}: not valid JSON: ${(e as Error).message}`);
  }
}

type FlowProblem = { path: string; message: string; code?: string };
const problemLine = (p: FlowProblem) =>
  `  ${p.path || "(flow)"}: ${p.message}${p.code && p.code !== "flow_invalid" ? ` [${p.code}]` : ""}`;

function validate(args: string[], io: CliIo): number {
  const { values, positionals } = parse(args, { help: clientOptions.help, json: clientOptions.json });
  if (values.help) return showHelp(io, flowHelp, 0);
  const results = expandFiles(positionals).map((file) => {
    let value: unknown;
    try {
      value = readJsonFile(file);
    } catch (e) {
      return {
        file,
        valid: false,
        problems: [{ path: "", message: (e as Error).message.replace(`${file}: `, "") }] as FlowProblem[],
      };
    }
    const checked = checkFlowFile(value, registry);
    return { file, valid: checked.ok, problems: (checked.ok ? [] : checked.problems) as FlowProblem[] };
  });
  if (values.json) printJson(io, { valid: results.every((r) => r.valid), files: results });
  else {
    for (const r of results) {
      if (r.valid) io.out(`${r.file}: valid`);
      else
        io.err(
          [
            `${r.file}: ${r.problems.length} problem${r.problems.length === 1 ? "" : "s"}`,
            ...r.problems.map(problemLine),
          ].join("\n"),
        );
    }
  }
  return results.every((r) => r.valid) ? 0 : 1;
}

/** The body of POST /flows for a flow file: its name (or the file's), description and definition. */
function importBody(file: string, value: unknown) {
  const checked = checkFlowFile(value, registry);
  if (!checked.ok)
    throw new CliError(
      `${file}: ${checked.problems.length} problem${checked.problems.length === 1 ? "" : "s"}; nothing imported`,
      checked.problems.map(problemLine),
    );
  const name = checked.file.name ?? path.basename(file).replace(/\.json$/i, "");
  return {
    name,
    ...(checked.file.description !== undefined ? { description: checked.file.description } : {}),
    definition: checked.definition,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: answers are the API's JSON, documented in docs/api.md
type Json = any;

async function importFlows(
  args: string[],
  backend: Backend,
  io: CliIo,
  json: boolean,
  activate: boolean,
): Promise<number> {
  const files = expandFiles(args);
  // Every file is checked before anything is written: a bad file in a folder imports nothing.
  const bodies = files.map((file) => ({ file, body: importBody(file, readJsonFile(file)) }));
  const imported: Json[] = [];
  for (const { file, body } of bodies) {
    let detail: Json = (await backend.call("createFlow", { body })).body;
    if (activate) {
      await backend.call("activateFlow", { params: { id: detail.flow.id } });
      detail = (await backend.call("getFlow", { params: { id: detail.flow.id } })).body;
    }
    imported.push(detail);
    if (!json)
      io.out(
        `imported ${file} as flow ${detail.flow.id} "${detail.flow.name}" (version ${detail.version}${detail.flow.active ? ", active" : ""})`,
      );
  }
  if (json) printJson(io, imported);
  return 0;
}

function parsePayload(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  let text = raw;
  if (raw.startsWith("@")) {
    try {
      text = readFileSync(raw.slice(1), "utf8");
    } catch (e) {
      throw new UsageError(
        `--payload ${raw}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? e})`,
      );
    }
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--payload is not valid JSON: ${(e as Error).message}`);
  }
}

/** `switchyard flow …` (except `validate`, which needs no backend and is dispatched first). */
export async function flowCommand(
  args: string[],
  open: (values: { url?: string; "api-key"?: string }) => Promise<Backend>,
  io: CliIo,
): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help") return showHelp(io, flowHelp, sub ? 0 : 2);
  if (sub === "validate") return validate(rest, io);
  const { values, positionals } = parse(rest, {
    ...clientOptions,
    activate: { type: "boolean" },
    version: { type: "string" },
    payload: { type: "string" },
    wait: { type: "boolean" },
    timeout: { type: "string" },
    from: { type: "string" },
    credential: { type: "string", multiple: true },
    workflow: { type: "string", multiple: true },
  });
  if (values.help) return showHelp(io, flowHelp, 0);
  const json = values.json ?? false;
  const one = () => {
    if (positionals.length !== 1) throw new UsageError(`flow ${sub} takes one flow id`);
    return positionals[0]!;
  };
  const needsOne = ["export", "activate", "deactivate", "run"].includes(sub) ? one() : undefined;
  if (!["list", "import", "export", "activate", "deactivate", "run"].includes(sub))
    throw new UsageError(`unknown flow command '${sub}'`);
  if (sub === "run" && values.timeout !== undefined && !values.wait)
    throw new UsageError("--timeout only applies with --wait");
  const payload = sub === "run" ? parsePayload(values.payload) : undefined;
  if (values.timeout !== undefined && !/^\d+$/.test(values.timeout))
    throw new UsageError(`--timeout must be a whole number of milliseconds, got '${values.timeout}'`);
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  if (values.from !== undefined && (sub !== "import" || values.from !== "n8n"))
    throw new UsageError(
      sub === "import" ? `--from takes n8n, got '${values.from}'` : "--from only applies to flow import",
    );
  if ((values.credential || values.workflow) && values.from === undefined)
    throw new UsageError("--credential and --workflow only apply with --from n8n");
  const credentials = pairs(values.credential, "credential");
  const workflows = pairs(values.workflow, "workflow");
  if (sub === "import" && values.from === "n8n" && positionals.length !== 1)
    throw new UsageError("flow import --from n8n takes one workflow file");
  const backend = await open(values);
  try {
    switch (sub) {
      case "list": {
        const { flows } = (await backend.call("listFlows")).body as Json;
        if (json) printJson(io, { flows });
        else if (flows.length === 0) io.out("no flows yet (switchyard flow import <file>)");
        else
          io.out(
            table(
              ["ID", "ACTIVE", "VERSION", "NAME"],
              flows.map((f: Json) => [f.id, f.active ? "yes" : "no", f.currentVersion, f.name]),
            ),
          );
        return 0;
      }
      case "import":
        if (values.from === "n8n")
          return await importN8nFiles(positionals, backend, io, {
            json,
            activate: values.activate ?? false,
            credentials,
            workflows,
          });
        return await importFlows(positionals, backend, io, json, values.activate ?? false);
      case "export": {
        const version = values.version;
        const { body } = await backend.call("getFlow", { params: { id: needsOne! }, query: { version } });
        const { flow, definition } = body as Json;
        io.out(
          JSON.stringify(
            {
              name: flow.name,
              ...(flow.description ? { description: flow.description } : {}),
              ...definition,
            },
            null,
            2,
          ),
        );
        return 0;
      }
      case "activate":
      case "deactivate": {
        const { body: flow } = (await backend.call(sub === "activate" ? "activateFlow" : "deactivateFlow", {
          params: { id: needsOne! },
        })) as Json;
        if (json) printJson(io, flow);
        else
          io.out(
            `flow ${flow.id} "${flow.name}" is ${flow.active ? `active (version ${flow.activeVersion})` : "inactive"}`,
          );
        return 0;
      }
      default: {
        if (values.wait) await backend.runWorker();
        const answer = await backend.call("runFlow", {
          params: { id: needsOne! },
          body: {
            payload,
            ...(values.wait ? { wait: true } : {}),
            ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          },
        });
        const run = answer.body as Json;
        if (answer.status === 202) {
          if (json) printJson(io, run);
          else
            io.out(
              `run ${run.runId} is ${run.status}${values.wait ? " (still going when the wait ended)" : ""}`,
            );
          if (!values.wait && backend.mode === "local" && !json)
            io.err("it runs when a server (switchyard start/worker) works on this data dir");
          return values.wait ? 1 : 0;
        }
        if (json) printJson(io, run);
        else printRun(io, run);
        return runFailed(run) ? 1 : 0;
      }
    }
  } finally {
    await backend.close();
  }
}
