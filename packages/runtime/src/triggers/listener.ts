import type { FlowSettings, TriggerDefinition } from "@switchyard/engine";
import type { z } from "zod";

export type TriggerStatus = "listening" | "error";

/** What a listener says about one flow's trigger; merged into its health record. */
export interface TriggerHealthUpdate {
  status?: TriggerStatus;
  lastEventAt?: string;
  lastError?: string;
}

/** How a listener admits one event beyond its payload. */
export interface FireOptions {
  /**
   * The event's own id (a broker's message id): an event whose key already started a run of this flow
   * within `ttlMs` starts none, and the earlier run's id is returned. Stored in the admission's commit.
   */
  dedupe?: { key: string; ttlMs: number };
}

/** One active flow's trigger, handed to the listener of its type. */
export interface TriggerBinding<C = unknown> {
  flowId: string;
  flowVersion: number;
  nodeId: string;
  /** The node's config, parsed once by the definition's own schema (defaults filled in). */
  config: C;
  /** The flow's settings (a schedule without its own time zone reads the flow's). */
  settings: FlowSettings;
  /**
   * Starts a run of this flow version with `payload` as its trigger item, on the channel the trigger
   * definition declares. Resolves with the run id once the run is durable, and records the event in
   * the trigger's health. Rejects once this binding is replaced or unbound: a trigger never starts a
   * version it no longer serves.
   */
  fire(payload: unknown, options?: FireOptions): Promise<string>;
  /** The same, for a listener that already holds the payload as JSON text. */
  fireJson(payloadJson: string, options?: FireOptions): Promise<string>;
  /** Updates this trigger's health (the flow list shows it). */
  report(update: TriggerHealthUpdate): void;
}

/**
 * How one trigger type listens. The host calls `bind` when a flow using the type is activated or
 * edited (with the new version), `unbind` when it is deactivated; `start` and `close` follow the host.
 * Bindings may arrive before `start` (the CLI activates flows without starting the host): a listener
 * keeps them and serves them once started.
 */
export interface ListenerMethods<C> {
  start?(): Promise<void>;
  /** Starts (or replaces) the flow's trigger. Throw a TriggerBindError for a refusal the user can fix. */
  bind(binding: TriggerBinding<C>): void | Promise<void>;
  unbind(flowId: string): void;
  /** Any run of a flow bound here finished (the schedule's overlap policy waits for this). */
  runFinished?(flowId: string): void;
  close?(): void | Promise<void>;
}

export interface TriggerListener<S extends z.ZodType = z.ZodType> extends ListenerMethods<z.output<S>> {
  /** The definition this listener serves: its type id, config schema and run channel come from it. */
  trigger: TriggerDefinition<S>;
}

/**
 * Declares a trigger type's listener next to its runtime code. `bind` receives the config typed by the
 * definition's schema, so a listener never casts it; extra members (a port, a test hook) are kept.
 */
export function defineTriggerListener<S extends z.ZodType, M extends ListenerMethods<z.output<S>>>(
  listener: { trigger: TriggerDefinition<S> } & M,
): { trigger: TriggerDefinition<S> } & M {
  return listener;
}

/**
 * A binding the user can fix (a path or address another flow uses, a time zone the schedule cannot
 * read): activation answers it as a bad request naming the trigger node, not as a crash.
 */
export class TriggerBindError extends Error {
  override name = "TriggerBindError";
}
