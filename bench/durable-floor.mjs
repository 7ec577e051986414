// The durable floor: the least a server can do for W2 while keeping Switchyard's promise (an answered
// request has its run and its steps on disk). node:http, JSON.parse, {ok, n + 1}, and one group-committed
// transaction per event-loop turn inserting the run row and its three step rows into Switchyard's own
// schema (WAL, synchronous = NORMAL, foreign keys on), answering after COMMIT. No flow engine, no
// validation, no expressions: it shows what durability alone costs next to the raw echo.
//
//   node bench/durable-floor.mjs <database file> <flow id> <path to better-sqlite3>
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import http from "node:http";

const [file, flowId, sqlitePath] = process.argv.slice(2);
const Database = createRequire(import.meta.url)(sqlitePath);
const db = new Database(file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.pragma("foreign_keys = ON");

const insertRun = db.prepare(
  `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, attempts, createdAt, startedAt, endedAt, durationMs, output)
   VALUES (?, ?, 1, 'succeeded', 'webhook', ?, ?, 1, ?, ?, ?, 0, ?)`,
);
const insertStep = db.prepare(
  `INSERT INTO "Step" (id, runId, stepId, nodeId, visit, attempt, status, port, input, output, truncated, startedAt, endedAt, durationMs)
   VALUES (?, ?, ?, ?, 1, 1, 'succeeded', 'main', ?, ?, 0, ?, ?, 0)`,
);
let seq = 0;
const id = () =>
  `${Date.now().toString(36)}${(seq++ % 1e6).toString(36).padStart(4, "0")}${randomUUID().slice(0, 8)}`;

let pending = [];
const commit = db.transaction((batch) => {
  for (const r of batch) {
    const runId = id();
    insertRun.run(runId, flowId, r.payloadJson, r.at, r.at, r.at, r.at, r.out);
    const items = `[{"json":${r.payloadJson}}]`;
    const outItems = `[{"json":${r.out}}]`;
    insertStep.run(id(), runId, "hook#1", "hook", null, items, r.at, r.at);
    insertStep.run(id(), runId, "set#1", "set", items, outItems, r.at, r.at);
    insertStep.run(id(), runId, "respond#1", "respond", outItems, outItems, r.at, r.at);
  }
});
const flush = () => {
  const batch = pending;
  pending = [];
  commit(batch);
  for (const r of batch) {
    r.res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(r.out) });
    r.res.end(r.out);
  }
};

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString() || "{}");
    const at = new Date().toISOString();
    const payloadJson = JSON.stringify({
      method: req.method,
      path: req.url,
      headers: req.headers,
      query: {},
      body,
      receivedAt: at,
    });
    const out = JSON.stringify({ ok: true, n: (body.n ?? 0) + 1 });
    if (pending.length === 0) setImmediate(flush);
    pending.push({ res, at, payloadJson, out });
  });
});
server.keepAliveTimeout = 65000;
// Exits rather than dies on SIGTERM, so `node --cpu-prof` writes its profile (bench/webhook-profile.ts --role floor).
process.on("SIGTERM", () => process.exit(0));
server.listen(0, "127.0.0.1", () => console.log(`durable floor listening on ${server.address().port}`));
