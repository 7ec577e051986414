/**
 * `switchyard flow import --from n8n FILE`: sends an n8n workflow export to the importN8nFlow operation
 * (the server translates and stores it) and prints the import report: every mapping, loss and problem.
 */
import { readFileSync } from "node:fs";
import { formatReport, type ImportReport } from "@switchyard/import-n8n";
import type { Backend } from "./backend";
import { CliError, type CliIo, printJson, UsageError } from "./io";

/** `NAME=ID` pairs of --credential / --workflow, as a map. */
export function pairs(values: string[] | undefined, option: string): Record<string, string> | undefined {
  if (!values?.length) return undefined;
  return Object.fromEntries(
    values.map((v) => {
      const at = v.lastIndexOf("=");
      if (at <= 0 || at === v.length - 1)
        throw new UsageError(`--${option} takes N8N_NAME_OR_ID=SWITCHYARD_ID, got '${v}'`);
      return [v.slice(0, at), v.slice(at + 1)];
    }),
  );
}

// biome-ignore lint/suspicious/noExplicitAny: answers are the API's JSON, documented in docs/api.md
type Json = any;

export async function importN8nFiles(
  files: string[],
  backend: Backend,
  io: CliIo,
  opts: {
    json: boolean;
    activate: boolean;
    credentials?: Record<string, string>;
    workflows?: Record<string, string>;
  },
): Promise<number> {
  if (files.length !== 1) throw new UsageError("flow import --from n8n takes one workflow file");
  const file = files[0]!;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new CliError(
      `${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`,
    );
  }
  const body = { workflow: text, credentials: opts.credentials, workflows: opts.workflows };
  let answer: Json;
  try {
    answer = (await backend.call("importN8nFlow", { body })).body;
  } catch (e) {
    if (e instanceof CliError) e.message = `${file}: ${e.message}; nothing imported`;
    throw e;
  }
  let activated = false;
  if (opts.activate && answer.problems.length === 0) {
    await backend.call("activateFlow", { params: { id: answer.flow.id } });
    activated = true;
  }
  if (opts.json) {
    printJson(io, { ...answer, flow: { ...answer.flow, active: activated } });
  } else {
    io.out(formatReport(answer.report as ImportReport).join("\n"));
    const n = answer.problems.length;
    io.out(
      `imported ${file} as flow ${answer.flow.id} "${answer.flow.name}" (version ${answer.version}, ${activated ? "active" : "inactive"})`,
    );
    if (n > 0)
      io.err(
        [
          `${n} problem${n === 1 ? "" : "s"} block${n === 1 ? "s" : ""} activation until resolved in the editor:`,
          ...answer.problems.map((p: Json) => `  ${p.nodeId ? `${p.nodeId}: ` : ""}${p.message} [${p.code}]`),
        ].join("\n"),
      );
  }
  // Asked to activate but refused: the flow exists as a draft, the command did not do what was asked.
  return opts.activate && !activated ? 1 : 0;
}
