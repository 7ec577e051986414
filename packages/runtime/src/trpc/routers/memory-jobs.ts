import { randomUUID } from "node:crypto";
import type { ImportReport, MemoryService } from "@switchyard/memory";

/** A long memory operation (file import, re-index) the page follows by polling `memory.job`. */
export interface MemoryJob {
  id: string;
  kind: "import" | "reembed";
  label: string;
  state: "running" | "done" | "failed";
  /** Units finished and in total (items); total is 0 until the work is counted. */
  done: number;
  total: number;
  report?: ImportReport | { embedded: number };
  error?: string;
  startedAt: string;
  finishedAt?: string;
}

const KEEP_FINISHED_MS = 60 * 60 * 1000;

// On globalThis: the import route handler and the tRPC route may be bundled as separate modules,
// and both must see the same jobs.
const KEY = Symbol.for("switchyard.memoryJobs");
const scope = globalThis as Record<symbol, unknown>;
if (!(scope[KEY] instanceof Map)) scope[KEY] = new Map<string, MemoryJob>();
const registry = scope[KEY] as Map<string, MemoryJob>;

function prune(now = Date.now()) {
  for (const [id, job] of registry)
    if (job.finishedAt && now - Date.parse(job.finishedAt) > KEEP_FINISHED_MS) registry.delete(id);
}

/** Registers a job and runs `work` in the background; `work` reports progress through the callback. */
export function startJob<R extends MemoryJob["report"]>(
  kind: MemoryJob["kind"],
  label: string,
  work: (progress: (done: number, total: number) => void) => Promise<R>,
  onSettled?: () => void,
): string {
  prune();
  const job: MemoryJob = {
    id: randomUUID(),
    kind,
    label,
    state: "running",
    done: 0,
    total: 0,
    startedAt: new Date().toISOString(),
  };
  registry.set(job.id, job);
  void work((done, total) => {
    job.done = done;
    job.total = total;
  })
    .then((report) => {
      job.report = report;
      job.state = "done";
      // A job with nothing to do (an empty file, no pending vectors) is still complete.
      if (job.total === 0) job.done = job.total = 1;
      else job.done = job.total;
    })
    .catch((err: unknown) => {
      job.state = "failed";
      job.error = err instanceof Error ? err.message : String(err);
    })
    .finally(() => {
      job.finishedAt = new Date().toISOString();
      onSettled?.();
    });
  return job.id;
}

export function readJob(id: string): MemoryJob | null {
  const job = registry.get(id);
  return job ? { ...job } : null;
}

export function startReembedJob(memory: MemoryService): string {
  return startJob("reembed", "Re-index vectors", async (progress) => ({
    embedded: await memory.ingest.reembed(progress),
  }));
}
