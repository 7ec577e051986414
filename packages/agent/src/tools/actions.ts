/**
 * The capabilities behind the tools that act (http_request, send_email, start_flow, run_code). The agent
 * package declares the tools (name, permission, arguments); the host implements these with the same
 * machinery as the `http.request`, `email.send`, `flow.call` and `code` nodes, per flow step, so a tool
 * call gets the step's SSRF guard, credential host binding, sub-flow caller and sandbox.
 */
import type { Tool } from "./tool";
import { createHttpRequestTool } from "./http-request";
import { createRunCodeTool } from "./run-code";
import { createSendEmailTool } from "./send-email";
import { createStartFlowTool } from "./start-flow";

export type JsonObject = Record<string, unknown>;

export interface ActionHttpRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  headers?: Record<string, string>;
  body?: { type: "json"; value: unknown } | { type: "raw"; content: string; contentType: string };
  auth?: { type: "bearer" | "basic" | "header"; credentialId: string };
}

export interface ActionEmail {
  to: string[];
  cc?: string[];
  subject: string;
  text: string;
}

export interface ActionCapabilities {
  httpRequest(
    req: ActionHttpRequest,
    signal: AbortSignal,
  ): Promise<{ status: number; headers: Record<string, string>; body: unknown }>;
  sendEmail(
    mail: ActionEmail,
    signal: AbortSignal,
  ): Promise<{ messageId?: string; accepted: string[]; rejected: string[] }>;
  /** Runs the flow as a sub-flow of the current run (it inherits the run's channel); returns its last items. */
  startFlow(flowId: string, items: JsonObject[], signal: AbortSignal): Promise<JsonObject[]>;
  /** Runs a JavaScript function body in the sandbox with `items`; returns the items it produced. */
  runCode(code: string, items: JsonObject[], signal: AbortSignal): Promise<JsonObject[]>;
}

/** The four tools over one step's capabilities. */
export function createActionTools(cap: ActionCapabilities): Tool[] {
  return [
    createHttpRequestTool(cap),
    createSendEmailTool(cap),
    createStartFlowTool(cap),
    createRunCodeTool(cap),
  ];
}

/** Tool results are text for the model; JSON keeps structure readable. */
export function toolJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? "null";
}
