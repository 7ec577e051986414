// A consumer process for the queue test: claims runs, "executes" them, records completions.
import { openRawDatabase } from "@switchyard/db";
import { createSqliteRunQueue } from "../src/queue/sqlite-run-queue";

const [file, workerId, leaseMs] = process.argv.slice(2) as [string, string, string];
const db = openRawDatabase(file);
db.exec(`CREATE TABLE IF NOT EXISTS completions (runId TEXT, workerId TEXT)`);
const record = db.prepare(`INSERT INTO completions (runId, workerId) VALUES (?, ?)`);
const queue = createSqliteRunQueue(db);

async function loop() {
  let idle = 0;
  while (idle < 40) {
    const runs = queue.claim({ workerId, max: 8, leaseMs: Number(leaseMs) });
    if (runs.length === 0) {
      idle++;
      await new Promise((r) => setTimeout(r, 25));
      continue;
    }
    idle = 0;
    // Tell the parent we hold leases now, so it can kill us mid-batch.
    process.send?.({ claimed: runs.length });
    for (const run of runs) {
      await new Promise((r) => setTimeout(r, 2)); // the "work"
      db.transaction(() => {
        if (queue.finish(run.id, workerId, { status: "succeeded" })) record.run(run.id, workerId);
      })();
    }
  }
  process.exit(0);
}
void loop();
