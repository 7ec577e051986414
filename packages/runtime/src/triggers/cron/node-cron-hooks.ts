import cron, { type RunCoordinator } from "node-cron";
import type { Logger } from "../../logger";

/** One process owns every slot; a shared coordinator (Redis, the database) plugs in for scale-out. */
export const localRunCoordinator: RunCoordinator = { shouldRun: () => true };

/** node-cron's default lease for an elected slot. */
export const COORDINATOR_TTL_MS = 30_000;

const text = (msg: unknown) => (msg instanceof Error ? msg.message : String(msg));

/** node-cron logs through console by default; anything it says goes to our logger instead. */
export function routeNodeCronLogs(log: Logger): void {
  cron.setLogger({
    info: (msg) => log.info({ source: "node-cron" }, msg),
    warn: (msg) => log.warn({ source: "node-cron" }, msg),
    error: (msg, err) => log.error({ source: "node-cron", err: err ?? msg }, text(msg)),
    debug: (msg, err) => log.debug({ source: "node-cron", err: err ?? msg }, text(msg)),
  });
}
