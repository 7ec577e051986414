import type { Redis } from "ioredis";
import type { RunCoordinator } from "node-cron";

/** Slot keys are kept this long: a process catching up after downtime must still see who fired a slot. */
const KEEP_MS = 7 * 86_400_000;

/**
 * node-cron's RunCoordinator on Redis: the first process to claim a slot's key (`SET NX`) fires it, every
 * other one skips it. The key names the slot itself (`<flowId>:<nodeId>:<slot ISO>`), so catch-up after
 * downtime, which asks for the same missed slot from every process, fires it once too.
 */
export function createRedisRunCoordinator(
  redis: Redis,
  owner: string,
  prefix = "switchyard",
): RunCoordinator {
  return {
    async shouldRun(key: string, ttlMs: number) {
      const ok = await redis.set(`${prefix}:cron:${key}`, owner, "PX", Math.max(ttlMs, KEEP_MS), "NX");
      return ok === "OK";
    },
  };
}
