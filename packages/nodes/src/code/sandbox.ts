import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
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
const wasmPath = createRequire(qjsPath).resolve("@jitl/quickjs-wasmfile-release-sync/wasm");

/** The slice of the WebAssembly API used here (the project's TS lib set does not declare it). */
type WasmModule = { readonly __brand?: "WebAssembly.Module" };
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> };

/** The QuickJS wasm, compiled once per process and handed to each worker (Modules clone cheaply). */
let compiled: Promise<WasmModule> | undefined;
const wasmModule = () => {
  compiled ??= readFile(wasmPath).then((bytes) => WebAssembly.compile(bytes));
  return compiled;
};

function spawn(): Worker {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    env: {},
    workerData: { qjsPath },
    resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    stdout: true,
    stderr: true,
  });
  worker.unref();
  // A spare that dies before use is simply replaced.
  worker.on("error", () => {
    if (spare === worker) spare = undefined;
  });
  return worker;
}

/**
 * Workers are single-use (no state survives between runs); one spare is kept booted so a run
 * does not wait for a thread to start. It is unref'd: it never keeps the process alive.
 */
let spare: Worker | undefined;
function takeWorker(): Worker {
  const worker = spare ?? spawn();
  spare = spawn();
  worker.ref();
  return worker;
}

type DoneMessage =
  | { type: "done"; ok: true; output: string }
  | {
      type: "done";
      ok: false;
      kind: "timeout" | "memory" | "error" | "output" | "internal";
      message: string;
    };
type WorkerMessage = DoneMessage | { type: "log"; level: "info" | "warn" | "error"; message: string };

/**
 * Sandboxes running at once in this process. Each is a thread with its own heap (up to `memoryMb` of
 * wasm memory plus the worker's own), and sync webhook runs execute inside the request: without a bound,
 * N callers posting together to a flow with a code node started N threads at once (#18, red team).
 * More wait their turn, first come first served; the time limit counts from the start of the run.
 */
export const MAX_CONCURRENT_SANDBOXES = Math.max(2, availableParallelism());

let running = 0;
let peak = 0;
const waiting: Array<() => void> = [];

/** Sandboxes running now, and the most that ever ran at once (for tests and diagnostics). */
export function sandboxStats(): { running: number; waiting: number; peak: number } {
  return { running, waiting: waiting.length, peak };
}

/** Resolves when a sandbox slot is free (taken for the caller); rejects when the signal aborts first. */
function acquireSlot(signal: AbortSignal, nodeId?: string): Promise<void> {
  if (running < MAX_CONCURRENT_SANDBOXES) {
    running++;
    peak = Math.max(peak, running);
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const grant = () => {
      signal.removeEventListener("abort", onAbort);
      running++;
      peak = Math.max(peak, running);
      resolve();
    };
    const onAbort = () => {
      const i = waiting.indexOf(grant);
      if (i >= 0) waiting.splice(i, 1);
      reject(new NodeError("cancelled", "code run cancelled", { nodeId, retryable: false }));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    waiting.push(grant);
  });
}

function releaseSlot(): void {
  running--;
  waiting.shift()?.();
}

/**
 * Runs user JavaScript in QuickJS inside a fresh worker thread and returns what it returned,
 * parsed from JSON. The worker gets an empty environment and is always terminated afterwards.
 */
export async function runSandbox(opts: SandboxOptions): Promise<unknown> {
  const module = await wasmModule();
  if (opts.signal.aborted)
    throw new NodeError("cancelled", "code run cancelled", { nodeId: opts.nodeId, retryable: false });
  await acquireSlot(opts.signal, opts.nodeId);
  try {
    return await runInWorker(opts, module);
  } finally {
    releaseSlot();
  }
}

function runInWorker(opts: SandboxOptions, module: WasmModule): Promise<unknown> {
  const { nodeId } = opts;
  const fail = (code: "timeout" | "sandbox_failed" | "cancelled", message: string) =>
    new NodeError(code, message, { nodeId, retryable: false });
  const timeoutError = () => fail("timeout", `code ran longer than ${opts.timeoutMs} ms`);
  const memoryError = () => fail("sandbox_failed", `code used more than ${opts.memoryMb} MB of memory`);

  return new Promise((resolve, reject) => {
    if (opts.signal.aborted) return reject(fail("cancelled", "code run cancelled"));
    const worker = takeWorker();
    worker.postMessage({
      wasmModule: module,
      code: opts.code,
      inputJson: JSON.stringify(opts.input),
      timeoutMs: opts.timeoutMs,
      memoryBytes: opts.memoryMb * 1024 * 1024,
      maxOutputBytes: opts.maxOutputBytes ?? 10 * 1024 * 1024,
      maxLogLines: opts.maxLogLines ?? 200,
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
      else if (msg.kind === "internal")
        finish(new NodeError("internal", `sandbox failed: ${msg.message}`, { nodeId }));
      else if (msg.kind === "output") finish(fail("sandbox_failed", `code ${msg.message}`));
      else finish(fail("sandbox_failed", `code threw ${msg.message}`));
    });
    // A worker dies on its own only when its host-side limits trip (e.g. heap), so report memory.
    worker.on("error", () => finish(memoryError()));
    worker.on("exit", () => finish(memoryError()));
  });
}
