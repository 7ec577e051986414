import type { Backend } from "./backend";
import {
  CliError,
  type CliIo,
  clientOptions,
  parse,
  showHelp,
  printJson,
  readStdin,
  table,
  UsageError,
} from "./io";

export const memoryHelp = `Usage: switchyard memory <command> [options]

  memory import <path> [--namespace NS] [--json]
                        import a file or folder (markdown, text, csv, vcard, transcripts) — local data dir only
  memory add --key KEY (--content TEXT | --content-stdin) [--namespace NS] [--kind K] [--tag T]... [--source S] [--json]
                        add one item (or update the one with the same namespace and --source)
  memory search <query> [--namespace NS] [--mode balanced|semantic|lexical] [--limit N] [--json]

Client options: --url URL --api-key KEY (or SWITCHYARD_URL, SWITCHYARD_API_KEY); default: local data dir.
Exit codes: 0 ok, 1 failure, 2 usage error.`;

// biome-ignore lint/suspicious/noExplicitAny: answers are the API's JSON, documented in docs/api.md
type Json = any;

export async function memoryCommand(
  args: string[],
  open: (values: { url?: string; "api-key"?: string }) => Promise<Backend>,
  io: CliIo,
): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help")
    return showHelp(io, memoryHelp, sub ? 0 : 2);
  if (!["import", "add", "search"].includes(sub)) throw new UsageError(`unknown memory command '${sub}'`);
  const { values, positionals } = parse(rest, {
    ...clientOptions,
    namespace: { type: "string" },
    mode: { type: "string" },
    limit: { type: "string" },
    key: { type: "string" },
    content: { type: "string" },
    "content-stdin": { type: "boolean" },
    kind: { type: "string" },
    tag: { type: "string", multiple: true },
    source: { type: "string" },
  });
  if (values.help) return showHelp(io, memoryHelp, 0);
  const json = values.json ?? false;
  if (sub !== "add" && positionals.length !== 1)
    throw new UsageError(`memory ${sub} takes one ${sub === "import" ? "path" : "query"}`);
  if (sub === "add") {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    if (!values.key) throw new UsageError("--key is required");
    if ((values.content === undefined) === !values["content-stdin"])
      throw new UsageError("give the content with --content TEXT or --content-stdin");
  }
  const content = sub === "add" ? (values.content ?? (await readStdin(io.stdin))) : undefined;
  const backend = await open(values);
  try {
    if (sub === "import") {
      const host = await backend.host("memory import");
      let report: Awaited<ReturnType<typeof host.services.memory.ingest.importPath>>;
      try {
        report = await host.services.memory.ingest.importPath(positionals[0]!, {
          namespace: values.namespace,
        });
      } catch (e) {
        throw new CliError(`cannot import ${positionals[0]}: ${(e as Error).message}`);
      }
      if (json) printJson(io, report);
      else {
        io.out(
          `imported ${report.files} file${report.files === 1 ? "" : "s"}: ${report.added} added, ${report.updated} updated, ${report.unchanged} unchanged, ${report.removed} removed`,
        );
        for (const s of report.skipped) io.err(`skipped ${s.path}: ${s.reason}`);
      }
      return 0;
    }
    if (sub === "add") {
      const body = {
        key: values.key,
        content,
        ...(values.namespace ? { namespace: values.namespace } : {}),
        ...(values.kind ? { kind: values.kind } : {}),
        ...(values.tag ? { tags: values.tag } : {}),
        ...(values.source ? { source: values.source } : {}),
      };
      const { body: item } = (await backend.call("addMemoryItem", { body })) as Json;
      if (json) printJson(io, item);
      else io.out(`stored ${item.kind} item ${item.id} "${item.key}" in ${item.namespace}`);
      return 0;
    }
    const { body } = await backend.call("searchMemory", {
      query: { q: positionals[0], namespace: values.namespace, mode: values.mode, limit: values.limit },
    });
    const { hits } = body as Json;
    if (json) printJson(io, { hits });
    else if (hits.length === 0) io.out("nothing found");
    else {
      const preview = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s).replace(/\s+/g, " ");
      io.out(
        table(
          ["SCORE", "KEY", "NAMESPACE", "CONTENT"],
          hits.map((h: Json) => [h.score.toFixed(3), h.item.key, h.item.namespace, preview(h.item.content)]),
        ),
      );
    }
    return 0;
  } finally {
    await backend.close();
  }
}
