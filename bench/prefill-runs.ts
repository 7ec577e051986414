import type Database from "better-sqlite3";

/**
 * Bulk-writes `n` finished W2 runs of `flowId`, each with its three steps, spread over the week before now, through a
 * raw connection (the schema's triggers fire), 20 000 per transaction: what a long-lived install holds. `sqlDate`
 * comes from the db package of the checkout being measured, so a baseline writes its own format.
 */
export function prefillRuns(
  db: Database.Database,
  flowId: string,
  n: number,
  sqlDate: (ms: number) => string,
  onProgress: (done: number) => void = () => {},
) {
  const runCols = new Set(
    (db.prepare(`PRAGMA table_info("Run")`).all() as { name: string }[]).map((c) => c.name),
  );
  const withOutput = runCols.has("output");
  const run = db.prepare(
    `INSERT INTO "Run" (id, flowId, flowVersion, status, channel, triggerPayload, availableAt, attempts, createdAt, startedAt, endedAt, durationMs${withOutput ? ", output" : ""})
     VALUES (?, ?, 1, 'succeeded', 'webhook', ?, ?, 1, ?, ?, ?, 2${withOutput ? ", ?" : ""})`,
  );
  const step = db.prepare(
    `INSERT INTO "Step" (id, runId, stepId, nodeId, status, port, input, output, startedAt, endedAt, durationMs)
     VALUES (?, ?, ?, ?, 'succeeded', 'main', ?, ?, ?, ?, 0)`,
  );
  const start = Date.now() - 7 * 86_400_000;
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const at = sqlDate(start + Math.floor((i / n) * 7 * 86_400_000));
      const id = `prefill${i.toString(36).padStart(10, "0")}`;
      const payload = JSON.stringify({ body: { n: i }, headers: { "content-type": "application/json" } });
      const out = JSON.stringify([{ ok: true, n: i + 1 }]);
      run.run(id, flowId, payload, at, at, at, at, ...(withOutput ? [out] : []));
      for (const node of ["hook", "set", "respond"])
        step.run(`${id}-${node}`, id, node, node, payload, out, at, at);
    }
  });
  for (let i = 0; i < n; i += 20_000) {
    batch(i, Math.min(n, i + 20_000));
    onProgress(Math.min(n, i + 20_000));
  }
}
