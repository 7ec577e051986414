/**
 * Source of the sandbox worker, run with `new Worker(src, { eval: true })` so it works the
 * same under tsx, vitest or a bundle (no .ts file for the worker to load). It is trusted host
 * code; the user's code runs inside the QuickJS VM it creates and sees none of this scope.
 *
 * Limits, innermost first: QuickJS's own memory limit and interrupt deadline; a WebAssembly
 * memory with a fixed maximum (QuickJS's limit misses some string allocations); and, outside,
 * the host terminates the whole worker at a wall-clock deadline.
 */
export const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require("node:worker_threads");
const { qjsPath } = workerData;
// Loaded while the worker waits as a spare, so a run pays only for its own work.
const { newQuickJSWASMModule, newVariant, RELEASE_SYNC } = require(qjsPath);

// The VM's own helpers: console → one host function taking strings only; items → parsed in-VM.
const PRELUDE = [
  "(() => {",
  "  const log = globalThis.__log; delete globalThis.__log;",
  "  const fmt = (args) => args.map((a) => { if (typeof a === 'string') return a;",
  "    try { const s = JSON.stringify(a); return s === undefined ? String(a) : s; } catch { return String(a); } }).join(' ');",
  "  const make = (level) => (...args) => { log(level, fmt(args)); };",
  "  globalThis.console = Object.freeze({ log: make('info'), info: make('info'), debug: make('info'), warn: make('warn'), error: make('error') });",
  "  globalThis.items = JSON.parse(globalThis.__input); delete globalThis.__input;",
  "})();",
].join("\n");

const PREFIX = "(async (items) => {";

function fail(kind, message) {
  parentPort.postMessage({ type: "done", ok: false, kind, message });
}

// Per job (a worker runs one): the wasm memory, its size before the user's code, and the limit.
let memory;
let baselineBytes = 0;
let limitBytes = 0;

function describeError(vm, handle) {
  const e = vm.dump(handle);
  // QuickJS throws null when it cannot even allocate its "out of memory" error. User code may
  // throw null too; tell them apart by how far the wasm heap (which never shrinks) has grown.
  if (e === null || e === undefined) {
    const grown = memory.buffer.byteLength - baselineBytes;
    if (grown >= limitBytes / 2) return { message: "out of memory", text: "out of memory" };
    return { message: "the value " + String(e), text: String(e) };
  }
  if (e && typeof e === "object") {
    const where = typeof e.stack === "string" ? (e.stack.match(/code\.js:(\d+)(?::(\d+))?/) || []) : [];
    // The wrapper shares the user's first line; take its width off line 1 columns.
    const col = where[2] ? Number(where[2]) - (where[1] === "1" ? PREFIX.length : 0) : 0;
    const at = where[1] ? " (line " + where[1] + (col > 0 ? ", column " + col : "") + ")" : "";
    return { message: String(e.name || "Error") + ": " + String(e.message) + at, text: String(e.message) };
  }
  return { message: "threw " + JSON.stringify(e), text: String(e) };
}

/** Answers with what a thrown value or stopped job says: the deadline, the memory limit, or the code's own error. */
function failWith(vm, handle) {
  const d = describeError(vm, handle);
  handle.dispose();
  if (d.text === "interrupted") return fail("timeout", d.message);
  if (d.text === "out of memory") return fail("memory", d.message);
  return fail("error", d.message);
}

// One job per worker: the host sends it, then terminates the worker when it answers.
parentPort.once("message", (job) => {
  run(job).catch((err) => fail("internal", String(err && err.message)));
});

async function run({ wasmModule, code, inputJson, timeoutMs, memoryBytes, maxOutputBytes, maxLogLines }) {
  // 16 MiB of headroom over the JS heap limit for QuickJS's own structures.
  const pages = Math.ceil((memoryBytes + 16 * 1024 * 1024) / 65536);
  limitBytes = memoryBytes;
  memory = new WebAssembly.Memory({ initial: 256, maximum: Math.max(256, pages) });
  const QuickJS = await newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory: memory, wasmModule }));
  const rt = QuickJS.newRuntime();
  rt.setMemoryLimit(memoryBytes);
  rt.setMaxStackSize(512 * 1024);
  const deadline = Date.now() + timeoutMs;
  rt.setInterruptHandler(() => Date.now() > deadline);
  const vm = rt.newContext();

  let lines = 0;
  const logFn = vm.newFunction("__log", (levelH, msgH) => {
    if (lines++ >= maxLogLines) return;
    const level = vm.getString(levelH);
    const message = vm.getString(msgH).slice(0, 2000);
    parentPort.postMessage({ type: "log", level, message });
  });
  vm.setProp(vm.global, "__log", logFn);
  logFn.dispose();
  const input = vm.newString(inputJson);
  vm.setProp(vm.global, "__input", input);
  input.dispose();
  const prelude = vm.evalCode(PRELUDE, "prelude.js");
  if (prelude.error) { prelude.error.dispose(); return fail("error", "sandbox prelude failed"); }
  prelude.value.dispose();

  baselineBytes = memory.buffer.byteLength;
  // Same line as the user's first line, so error line numbers match what they wrote.
  const wrapped = PREFIX + code + "\n})(globalThis.items).then((r) => JSON.stringify(r === undefined ? null : r))";
  let result;
  try {
    result = vm.evalCode(wrapped, "code.js");
  } catch (err) {
    return fail("memory", String(err && err.message));
  }
  if (result.error) return failWith(vm, result.error);
  let jobs;
  try {
    jobs = rt.executePendingJobs();
  } catch (err) {
    return fail("memory", String(err && err.message));
  }
  if (jobs.error) return failWith(vm, jobs.error);
  // Promise chains the code left running are interrupted at the deadline inside their jobs, which turns the
  // interruption into rejections nobody sees, so the queue empties as if all went well. Past the deadline the code
  // timed out, whatever its own promise returned (and disposing the VM now could abort on what those chains left).
  if (Date.now() > deadline) return fail("timeout", "interrupted");
  const state = vm.getPromiseState(result.value);
  result.value.dispose();
  if (state.type === "pending") return fail("error", "the code's promise never settled");
  if (state.type === "rejected") return failWith(vm, state.error);
  const out = vm.getString(state.value);
  state.value.dispose();
  if (out.length > maxOutputBytes) return fail("output", "output is larger than " + maxOutputBytes + " bytes");
  vm.dispose();
  rt.dispose();
  parentPort.postMessage({ type: "done", ok: true, output: out });
}
`;
