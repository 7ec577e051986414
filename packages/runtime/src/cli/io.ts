import { parseArgs, type ParseArgsConfig } from "node:util";
import type { CliIo } from "../auth/cli";

export type { CliIo };

/** Wrong use of the command line: exit code 2, with a pointer to the help. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A command that ran and failed (bad file, refused request, failed run): exit code 1. */
export class CliError extends Error {
  override name = "CliError";
  constructor(
    message: string,
    /** Extra lines printed after the message (one problem per line). */
    readonly lines: string[] = [],
  ) {
    super(message);
  }
}

/** Options every client command takes. */
export const clientOptions = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
  url: { type: "string" },
  "api-key": { type: "string" },
} as const satisfies ParseArgsConfig["options"];

/** `parseArgs` in strict mode, with its complaints turned into usage errors. */
export function parse<O extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(
      e instanceof Error ? e.message.replace(/\. To specify a positional argument.*$/s, "") : String(e),
    );
  }
}

/** Prints a value as the stable JSON documented in docs/cli.md. */
export function printJson(io: CliIo, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

/** A plain text table: one header row, columns padded to their widest cell. */
export function table(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (c == null ? "—" : String(c))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

export async function readStdin(stdin: NodeJS.ReadableStream, limit = 10 * 1024 * 1024): Promise<string> {
  let text = "";
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.length > limit) throw new CliError(`standard input is larger than ${limit} bytes`);
  }
  return text;
}

/** Prints a help text and returns the exit code to end with. */
export function showHelp(io: CliIo, text: string, code = 0): number {
  io.out(text);
  return code;
}

export const localOnly = (what: string) =>
  new CliError(
    `${what} works on the local data dir only; run it on the server's machine without --url (and SWITCHYARD_URL)`,
  );

/**
 * For a command that only works on the data dir: refuses when SWITCHYARD_URL names a server, before anything is
 * written (it would otherwise create and seed a data dir in the current folder).
 */
export function refuseRemote(config: { remote: { url?: string } }, what: string): void {
  if (config.remote.url) throw localOnly(what);
}
