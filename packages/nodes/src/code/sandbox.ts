import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { NodeError } from "../errors";
import { WORKER_SOURCE } from "./worker-source";

export interface SandboxOptions {
  code: string;
  /** Plain JSON handed to the code as `items`. */
  input: unknown;
  timeoutMs: number;
  memoryMb: number;
  signal: AbortSignal;
  onLog(level: "info" | "warn" | "error", message: string): void;
  nodeId?: string;
  maxOutputBytes?: number;
  maxLogLines?: number;
}

/** Extra time the in-VM deadline gets before the host kills the worker outright. */
const HARD_KILL_GRACE_MS = 1000;

const qjsPath = createRequire(import.meta.url).resolve("quickjs-emscripten");

type DoneMessage =
  | { type: "done"; ok: true; output: string }
  | { type: "done"; ok: false; kind: "timeout" | "memory" | "error" | "output"; message: string };
type WorkerMessage = DoneMessage | { type: "log"; level: "info" | "warn" | "error"; message: string };

/**
 * Runs user JavaScript in QuickJS inside a fresh worker thread and returns what it returned,
 * parsed from JSON. The worker gets an empty environment and is always terminated afterwards.
 */
export function runSandbox(opts: SandboxOptions): Promise<unknown> {
  const { nodeId } = opts;
  const fail = (code: "timeout" | "sandbox_failed" | "cancelled", message: string) =>
    new NodeError(code, message, { nodeId, retryable: false });
  const timeoutError = () => fail("timeout", `code ran longer than ${opts.timeoutMs} ms`);
  const memoryError = () => fail("sandbox_failed", `code used more than ${opts.memoryMb} MB of memory`);

  return new Promise((resolve, reject) => {
    if (opts.signal.aborted) return reject(fail("cancelled", "code run cancelled"));
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      env: {},
      workerData: {
        qjsPath,
        code: opts.code,
        inputJson: JSON.stringify(opts.input),
        timeoutMs: opts.timeoutMs,
        memoryBytes: opts.memoryMb * 1024 * 1024,
        maxOutputBytes: opts.maxOutputBytes ?? 10 * 1024 * 1024,
        maxLogLines: opts.maxLogLines ?? 200,
      },
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (err: NodeError | null, value?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(killer);
      opts.signal.removeEventListener("abort", onAbort);
      void worker.terminate();
      if (err) reject(err);
      else resolve(value);
    };
    const killer = setTimeout(() => finish(timeoutError()), opts.timeoutMs + HARD_KILL_GRACE_MS);
    const onAbort = () => finish(fail("cancelled", "code run cancelled"));
    opts.signal.addEventListener("abort", onAbort, { once: true });

    worker.on("message", (msg: WorkerMessage) => {
      if (msg.type === "log") return opts.onLog(msg.level, msg.message);
      if (msg.ok) {
        try {
          finish(null, JSON.parse(msg.output));
        } catch {
          finish(fail("sandbox_failed", "code returned something that is not JSON"));
        }
        return;
      }
      if (msg.kind === "timeout") finish(timeoutError());
      else if (msg.kind === "memory") finish(memoryError());
      else if (msg.kind === "output") finish(fail("sandbox_failed", `code ${msg.message}`));
      else finish(fail("sandbox_failed", `code threw ${msg.message}`));
    });
    // A worker dies on its own only when its host-side limits trip (e.g. heap), so report memory.
    worker.on("error", () => finish(memoryError()));
    worker.on("exit", () => finish(memoryError()));
  });
}
