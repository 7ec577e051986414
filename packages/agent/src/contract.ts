/**
 * The agent side of the node contract, structurally identical to AgentRunner / AgentRunRequest /
 * AgentRunResult in @switchyard/engine's contract.ts (agent does not depend on engine; a type test
 * keeps the two in step). Both take RunChannel from @switchyard/contracts.
 */
import type { RunChannel } from "@switchyard/contracts/runs";

export type { RunChannel };

export interface AgentRunRequest {
  agentRef: string;
  prompt: string;
  inputContext: unknown;
  channel: RunChannel;
  responseFormat?: { type: "text" } | { type: "json"; schema?: unknown };
  model?: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Receives this request's agent turn traces (the host stores them with the step). */
  onTrace?: (trace: unknown) => void;
}

export interface AgentRunResult {
  text: string;
  json?: unknown;
  agent_ref: string;
  stop: "finished" | "limit_stop";
  /** With `limit_stop`: the iteration limit the agent reached (its answer is the forced wrap-up). */
  maxIterations?: number;
  usage?: { promptTokens: number; completionTokens: number };
}

export interface AgentRunner {
  run(req: AgentRunRequest): Promise<AgentRunResult>;
}
