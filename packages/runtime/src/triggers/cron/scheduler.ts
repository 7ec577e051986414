import type { RunCoordinator } from "node-cron";
import type { Logger } from "../../logger";
import {
  type CronBinding,
  type CronFirePayload,
  type CronHealth,
  type CronStore,
  cronBindingSchema,
} from "./binding";
import { type Clock, MAX_TIMEOUT_MS, realClock } from "./clock";
import { type CompiledSchedule, compileSchedule } from "./expression";
import { latestFireAtOrBefore, nextFire } from "./next-fire";
import { COORDINATOR_TTL_MS, localRunCoordinator, routeNodeCronLogs } from "./node-cron-hooks";

export interface CronSchedulerOptions {
  clock?: Clock;
  store: CronStore;
  log: Logger;
  /** Admits a run; resolves with the run id once durable. */
  fire(binding: CronBinding, payload: CronFirePayload): Promise<string>;
  /** Whether a previous run of this flow is still running (for the overlap policy). */
  isRunning(flowId: string): boolean;
  onHealth?(flowId: string, health: CronHealth): void;
  /**
   * node-cron's hook for several processes: asked once per slot with the key
   * `<flowId>:<nodeId>:<slot ISO>`; a refusal means another process runs that slot. Default: this
   * process runs every slot.
   */
  coordinator?: RunCoordinator;
}

export interface CronScheduler {
  /** Starts (or replaces) one trigger's schedule; applies the missed-run policy. Rejects on bad config. */
  bind(binding: CronBinding): Promise<void>;
  /** Stops every schedule of the flow and drops its queued tick. */
  unbind(flowId: string): void;
  stop(): void;
  /** For overlap="queue": the runtime calls this when a run of the flow finishes. */
  runFinished(flowId: string): void;
}

/** Retries of a failing admission: 1 s, 2 s, 4 s … capped at 1 min, then the slot is given up. */
const RETRY_ATTEMPTS = 6;
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 60_000;

interface Entry {
  binding: CronBinding;
  schedule: CompiledSchedule;
  active: boolean;
  timer?: unknown;
  retries: Set<unknown>;
  /** Highest slot known to be in the store; writes never move it backwards. */
  persistedUpTo: number;
  persistChain: Promise<void>;
  /** overlap="queue": the one tick held until the running run finishes. */
  held?: { slot: number; missed: boolean };
}

const keyOf = (b: { flowId: string; nodeId: string }) => `${b.flowId}\u0000${b.nodeId}`;
const iso = (ms: number) => new Date(ms).toISOString();
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Cron scheduler: node-cron validates and matches expressions; the timer, the DST rules (next-fire.ts
 * says why node-cron's own cannot be used) and the overlap and missed-run policies are ours, on an
 * injectable clock, so downtime, overlap and DST behave the same under test as in production.
 * node-cron's schedule() is not used: it has no injectable clock, no "queue" overlap, no persisted
 * last fire for catch-up after downtime, and its DST rules differ.
 */
export function createCronScheduler(o: CronSchedulerOptions): CronScheduler {
  const clock = o.clock ?? realClock;
  const coordinator = o.coordinator ?? localRunCoordinator;
  routeNodeCronLogs(o.log);
  const entries = new Map<string, Entry>();
  /** Per trigger: the newest bind() call, so a slower earlier bind never installs over it. */
  const bindGeneration = new Map<string, number>();
  /** Per flow: bumped by unbind(), so a bind() still reading the store is abandoned. */
  const flowEpoch = new Map<string, number>();
  /** Per flow: the version of the newest bind(); an older version's bind still in flight is abandoned. */
  const flowVersion = new Map<string, number>();
  /** Per flow, FIFO: triggers holding a queued tick (overlap="queue"). */
  const queued = new Map<string, Entry[]>();
  let generation = 0;
  let stopped = false;

  const health = (flowId: string, h: CronHealth) => o.onHealth?.(flowId, h);
  const ids = (e: Entry) => ({ flowId: e.binding.flowId, nodeId: e.binding.nodeId });

  function deactivate(e: Entry) {
    e.active = false;
    if (e.timer !== undefined) clock.clearTimeout(e.timer);
    for (const r of e.retries) clock.clearTimeout(r);
    e.retries.clear();
    e.held = undefined;
    entries.delete(keyOf(e.binding));
    const q = queued.get(e.binding.flowId)?.filter((x) => x !== e);
    if (q?.length) queued.set(e.binding.flowId, q);
    else queued.delete(e.binding.flowId);
  }

  /**
   * The slot is written BEFORE the run is admitted. If the process dies between the two, the slot is
   * lost (at most once); the other order could admit the run and then, with the write lost, re-run
   * the same slot as a "missed" catch-up after restart — a duplicate e-mail or payment is worse than
   * a missed tick, which is visible in logs and health. Writes are chained so they land in order.
   */
  function persist(e: Entry, slot: number): Promise<void> {
    const write = e.persistChain.then(async () => {
      if (slot <= e.persistedUpTo) return;
      await o.store.setLastFire(e.binding.flowId, e.binding.nodeId, new Date(slot));
      e.persistedUpTo = slot;
    });
    e.persistChain = write.catch(() => undefined);
    return write;
  }

  /** node-cron's contract: fail closed — a coordinator that cannot answer runs nothing. */
  async function elected(e: Entry, key: string): Promise<boolean> {
    try {
      if (await coordinator.shouldRun(key, COORDINATOR_TTL_MS)) return true;
      o.log.debug({ ...ids(e), key }, "cron slot runs in another process");
    } catch (err) {
      o.log.error({ ...ids(e), key, err }, "cron run coordinator failed; slot skipped");
      health(e.binding.flowId, { status: "error", lastError: `Run coordinator failed: ${message(err)}` });
    }
    return false;
  }

  async function admit(e: Entry, slot: number, missed: boolean, attempt = 0): Promise<void> {
    if (!e.active) return;
    const key = `${e.binding.flowId}:${e.binding.nodeId}:${iso(slot)}`;
    if (attempt === 0 && !(await elected(e, key))) return recordOnly(e, slot);
    try {
      await persist(e, slot);
      if (!e.active) return;
      const firedAt = iso(clock.now());
      const payload: CronFirePayload = {
        scheduledAt: iso(slot),
        firedAt,
        expression: e.schedule.expression,
        timezone: e.binding.timezone,
        missed,
      };
      const runId = await o.fire(e.binding, payload);
      o.log.info({ ...ids(e), runId, scheduledAt: payload.scheduledAt, missed }, "cron run admitted");
      if (e.active) health(e.binding.flowId, { status: "listening", lastEventAt: firedAt });
      Promise.resolve(coordinator.onComplete?.(key)).catch((err) =>
        o.log.error({ ...ids(e), key, err }, "cron run coordinator onComplete failed"),
      );
    } catch (err) {
      if (!e.active) return;
      const giveUp = attempt + 1 >= RETRY_ATTEMPTS;
      const log = { ...ids(e), err, scheduledAt: iso(slot), attempt: attempt + 1 };
      if (giveUp) o.log.error(log, "cron run could not be admitted; slot given up");
      else o.log.warn(log, "cron run could not be admitted; retrying");
      health(e.binding.flowId, { status: "error", lastError: message(err) });
      if (giveUp) return;
      const delay = Math.min(RETRY_BASE_MS * 2 ** attempt, RETRY_MAX_MS);
      const handle = clock.setTimeout(() => {
        e.retries.delete(handle);
        void admit(e, slot, missed, attempt + 1);
      }, delay);
      e.retries.add(handle);
    }
  }

  /** Skipped and held ticks are recorded too, so they are never mistaken for downtime later. */
  function recordOnly(e: Entry, slot: number) {
    persist(e, slot).catch((err) => o.log.error({ ...ids(e), err }, "cron last-fire write failed"));
  }

  /** Overlap policy. "queue" holds at most one tick per trigger; later ones are coalesced into it. */
  function tick(e: Entry, slot: number, missed: boolean) {
    if (!e.active) return;
    const { overlap, flowId } = e.binding;
    if (overlap === "allow" || !o.isRunning(flowId)) {
      void admit(e, slot, missed);
      return;
    }
    const scheduledAt = iso(slot);
    if (overlap === "skip") {
      o.log.debug({ ...ids(e), scheduledAt, reason: "previous run still running" }, "cron tick skipped");
    } else if (e.held) {
      o.log.debug({ ...ids(e), scheduledAt, reason: "a tick is already queued" }, "cron tick coalesced");
    } else {
      e.held = { slot, missed };
      queued.set(flowId, [...(queued.get(flowId) ?? []), e]);
      o.log.debug({ ...ids(e), scheduledAt, reason: "previous run still running" }, "cron tick queued");
    }
    recordOnly(e, slot);
  }

  function arm(e: Entry, after: number) {
    const target = nextFire(e.schedule, after);
    if (target === undefined) {
      o.log.warn({ ...ids(e), expression: e.schedule.expression }, "cron schedule has no future fire time");
      health(e.binding.flowId, { status: "error", lastError: "The schedule has no future fire time" });
      return;
    }
    wait(e, target);
  }

  /** Long waits are split into timeouts of at most MAX_TIMEOUT_MS; an early wake-up just re-arms. */
  function wait(e: Entry, target: number) {
    const delay = Math.min(Math.max(target - clock.now(), 0), MAX_TIMEOUT_MS);
    e.timer = clock.setTimeout(() => {
      e.timer = undefined;
      if (!e.active) return;
      const now = clock.now();
      if (now < target) return wait(e, target);
      // A late wake-up (host suspended, event loop blocked) fires this slot once; slots that passed
      // meanwhile are coalesced into it rather than fired in a burst.
      arm(e, Math.max(target, now));
      tick(e, target, false);
    }, delay);
  }

  /** Missed-run policy, decided from the persisted last slot and the schedule. */
  function catchUp(e: Entry, last: number, now: number) {
    const first = nextFire(e.schedule, last);
    if (first === undefined || first > now) return;
    const latest = latestFireAtOrBefore(e.schedule, now, last) ?? first;
    const info = { ...ids(e), lastFire: iso(last), firstMissed: iso(first), latestMissed: iso(latest) };
    if (e.binding.missed === "run_once") {
      o.log.info(info, "cron fires missed during downtime; running once");
      tick(e, latest, true);
    } else {
      o.log.info(info, "cron fires missed during downtime; skipped by policy");
    }
  }

  async function bind(input: CronBinding): Promise<void> {
    if (stopped) throw new Error("The cron scheduler is stopped");
    const binding = cronBindingSchema.parse(input);
    // Validation comes first: a bad edit leaves the schedule that is running untouched.
    const schedule = compileSchedule(binding.expression, binding.timezone);
    const key = keyOf(binding);
    // Replace at once: this trigger's old schedule and any trigger of an older version of the flow.
    for (const e of [...entries.values()]) {
      const same = e.binding.flowId === binding.flowId;
      if (same && (keyOf(e.binding) === key || e.binding.flowVersion !== binding.flowVersion)) deactivate(e);
    }
    const gen = ++generation;
    bindGeneration.set(key, gen);
    flowVersion.set(binding.flowId, binding.flowVersion);
    const epoch = flowEpoch.get(binding.flowId) ?? 0;

    let last: Date | undefined;
    try {
      last = await o.store.getLastFire(binding.flowId, binding.nodeId);
    } catch (err) {
      health(binding.flowId, {
        status: "error",
        lastError: `Could not read the last fire time: ${message(err)}`,
      });
      throw err;
    }
    const superseded =
      bindGeneration.get(key) !== gen ||
      flowVersion.get(binding.flowId) !== binding.flowVersion ||
      (flowEpoch.get(binding.flowId) ?? 0) !== epoch;
    if (stopped || superseded) return;

    const lastMs = last?.getTime();
    const e: Entry = {
      binding,
      schedule,
      active: true,
      retries: new Set(),
      persistedUpTo: lastMs ?? Number.NEGATIVE_INFINITY,
      persistChain: Promise.resolve(),
    };
    entries.set(key, e);
    const now = clock.now();
    health(binding.flowId, { status: "listening" });
    if (lastMs !== undefined) catchUp(e, lastMs, now);
    // A last fire in the future (clock stepped back) must not fire again: start after it.
    arm(e, Math.max(now, lastMs ?? now));
  }

  function unbind(flowId: string) {
    flowEpoch.set(flowId, (flowEpoch.get(flowId) ?? 0) + 1);
    for (const e of [...entries.values()]) if (e.binding.flowId === flowId) deactivate(e);
  }

  function runFinished(flowId: string) {
    const q = queued.get(flowId);
    const e = q?.shift();
    if (!q?.length) queued.delete(flowId);
    if (!e?.held) return;
    const { slot, missed } = e.held;
    e.held = undefined;
    void admit(e, slot, missed);
  }

  function stop() {
    stopped = true;
    for (const e of [...entries.values()]) deactivate(e);
  }

  return { bind, unbind, stop, runFinished };
}
