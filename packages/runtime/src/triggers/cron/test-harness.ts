import type { RunCoordinator } from "node-cron";
import pino from "pino";
import type { CronBinding, CronFirePayload, CronHealth, CronStore } from "./binding";
import { createFakeClock } from "./fake-clock";
import { createCronScheduler } from "./scheduler";

/** In-memory CronStore that records every write in order. */
export function createMemoryStore(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial).map(([k, v]) => [k, new Date(v)]));
  const writes: string[] = [];
  const store: CronStore & { writes: string[]; data: Map<string, Date>; failWrites: boolean } = {
    writes,
    data,
    failWrites: false,
    async getLastFire(flowId, nodeId) {
      return data.get(`${flowId}/${nodeId}`);
    },
    async setLastFire(flowId, nodeId, at) {
      if (store.failWrites) throw new Error("disk full");
      writes.push(at.toISOString());
      data.set(`${flowId}/${nodeId}`, at);
    },
  };
  return store;
}

export interface Fired {
  binding: CronBinding;
  payload: CronFirePayload;
  /** Virtual time at which fire() was called, ISO. */
  at: string;
  /** The last-fire value in the store when fire() was called. */
  storedAtFire: string | undefined;
}

/** A scheduler on a fake clock with a memory store, a capturing logger and scripted runs. */
export function createHarness(
  start: string,
  opts: { initial?: Record<string, string>; coordinator?: RunCoordinator } = {},
) {
  const clock = createFakeClock(start);
  const store = createMemoryStore(opts.initial);
  const logs: Array<{ level: number; msg: string; reason?: string }> = [];
  const log = pino({ level: "debug" }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const fired: Fired[] = [];
  const health: Array<{ flowId: string } & CronHealth> = [];
  const running = new Set<string>();
  const failures: { remaining: number } = { remaining: 0 };
  const scheduler = createCronScheduler({
    clock,
    store,
    log,
    async fire(binding, payload) {
      const stored = store.data.get(`${binding.flowId}/${binding.nodeId}`)?.toISOString();
      if (failures.remaining > 0) {
        failures.remaining--;
        throw new Error("queue unavailable");
      }
      fired.push({ binding, payload, at: new Date(clock.now()).toISOString(), storedAtFire: stored });
      return `run-${fired.length}`;
    },
    isRunning: (flowId) => running.has(flowId),
    onHealth: (flowId, h) => void health.push({ flowId, ...h }),
    coordinator: opts.coordinator,
  });
  return { clock, store, logs, fired, health, running, failures, scheduler };
}

export function binding(over: Partial<CronBinding> = {}): CronBinding {
  return {
    flowId: "flow-1",
    flowVersion: 1,
    nodeId: "cron",
    expression: "0 9 * * *",
    timezone: "UTC",
    overlap: "skip",
    missed: "skip",
    ...over,
  };
}

/** pino level numbers */
export const WARN = 40;
