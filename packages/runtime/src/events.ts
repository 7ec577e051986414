import { EventEmitter } from "node:events";
import type { RunChannel, RunProgressEvent } from "@switchyard/engine";
import type { RunOutcome } from "./queue/types";

/** A run left the worker: terminal, or parked (`waiting`) until its durable wait is due. */
export interface RunFinished {
  runId: string;
  flowId: string;
  channel: RunChannel;
  status: RunOutcome["status"];
}

/**
 * Every event the host emits in-process, with its payload: listeners and emitters are type-checked against
 * this map, so a renamed event or a changed payload fails the build instead of going silent.
 */
export interface HostEvents {
  /** A step started, finished or was skipped (the run page's live view). */
  "run.event": [RunProgressEvent];
  /** Emitted only by `runFinished` in services.ts, for worker and inline runs alike. */
  "run.finished": [RunFinished];
  /** A request reached a flow's test webhook URL while the editor listens for a test event. */
  "webhook.test": [{ flowId: string; payload: unknown }];
}

export type EventBus = EventEmitter<HostEvents>;

export function createEventBus(): EventBus {
  const events = new EventEmitter<HostEvents>();
  // Every open run page and API wait adds a listener for its lifetime: there is no fixed bound.
  events.setMaxListeners(0);
  return events;
}
