import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, extname, join } from "node:path";
import { requireHost } from "@/server/host";
import { loadTrpc } from "@/server/trpc";

export const dynamic = "force-dynamic";

const MAX_BYTES = 50 * 1024 * 1024;
const EXTENSIONS = [".md", ".markdown", ".json", ".txt", ".csv", ".vcf", ".vcard"];

const problem = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status });

/**
 * Imports one uploaded file into memory (multipart form: `file`, optional `namespace`, `thread`).
 * Answers 202 with a job id at once; the page polls `memory.job` for progress. Same rules as a tRPC
 * write: signed in as an owner or editor (or an API key with the write scope), same-origin for cookies.
 */
export async function POST(req: Request) {
  const host = requireHost();
  const { createContext, startJob } = await loadTrpc();
  const ctx = await createContext(host, req, new Headers());
  if (!ctx.auth) return problem(401, "unauthorized", "sign in first");
  if (!ctx.auth.scopes.includes("write"))
    return problem(403, "forbidden", "this API key lacks the write scope");
  if (ctx.auth.via !== "apikey" && !ctx.sameOrigin)
    return problem(403, "forbidden", "cross-site request refused");
  if (!["owner", "editor"].includes(ctx.auth.user.role))
    return problem(403, "forbidden", "only owners and editors can do this");
  if (Number(req.headers.get("content-length") ?? 0) > MAX_BYTES + 64 * 1024)
    return problem(413, "too_large", "the file is larger than 50 MB");

  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    return problem(400, "bad_request", "expected a multipart form with a file");
  }
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0)
    return problem(400, "bad_request", "choose a non-empty file to import");
  if (file.size > MAX_BYTES) return problem(413, "too_large", "the file is larger than 50 MB");
  // Only the base name is kept: a crafted name cannot reach outside the temp folder.
  const name = basename(file.name.replace(/\\/g, "/")).replace(/[^\w.\- ]+/g, "_") || "upload";
  if (!EXTENSIONS.includes(extname(name).toLowerCase()))
    return problem(
      400,
      "unsupported",
      `unsupported file type '${extname(name) || name}' (expected ${EXTENSIONS.join(", ")})`,
    );
  const namespace = String(form.get("namespace") ?? "").trim() || "global";
  const thread = String(form.get("thread") ?? "").trim() || undefined;

  const dir = mkdtempSync(join(tmpdir(), "switchyard-memory-upload-"));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(await file.arrayBuffer()));
  const jobId = startJob(
    "import",
    `Import ${name}`,
    // The recorded source is the upload's name, so uploading a newer version of the same file updates it.
    (progress) =>
      host.services.memory.ingest.importPath(path, {
        namespace,
        thread,
        source: `upload:${name}`,
        onProgress: progress,
      }),
    () => rmSync(dir, { recursive: true, force: true }),
  );
  return Response.json({ jobId }, { status: 202 });
}
