/**
 * A scripted OpenAI-compatible chat-completions server on 127.0.0.1 (port 0) for tests. It plays
 * replies in order (or from a function of the request), including tool calls, and records every
 * request it received so tests can assert what the model was shown.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedReply {
  content?: string | null;
  /** `arguments` objects are JSON-encoded; strings are sent as-is (to test malformed JSON). */
  toolCalls?: { id?: string; name: string; arguments: unknown }[];
  usage?: { promptTokens: number; completionTokens: number };
  /** Non-200 replies send `body` (default a JSON error) with `headers`. */
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (until the client gives up); for timeout and abort tests. */
  hang?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: the recorded body is whatever JSON the client sent
  body: any;
}

/** May return a promise: a test holds a reply until some other request has arrived (ordering by events). */
export type ScriptResponder = (req: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;
export type ScriptStep = ScriptedReply | ScriptResponder;

export interface ScriptedLlmServer {
  /** Base URL including `/v1`, ready for `createOpenAiCompatibleProvider({ baseUrl })`. */
  url: string;
  requests: RecordedRequest[];
  /** Scripted steps not yet played. */
  remaining(): number;
  close(): Promise<void>;
}

export async function startScriptedLlmServer(
  script: ScriptStep[] | ScriptResponder,
): Promise<ScriptedLlmServer> {
  const requests: RecordedRequest[] = [];
  const queue = Array.isArray(script) ? [...script] : undefined;
  let played = 0;

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // keep the raw text; the reply below tells the client its body was not JSON
    }
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
      body,
    };
    requests.push(recorded);
    if (recorded.method !== "POST" || !recorded.path.endsWith("/chat/completions")) {
      return send(res, 404, { error: { message: `no route for ${recorded.method} ${recorded.path}` } });
    }
    const index = played++;
    let step: ScriptStep | undefined;
    if (queue) step = queue.shift();
    else step = script as ScriptResponder;
    if (!step)
      return send(res, 500, {
        error: { message: `scripted LLM server: script exhausted after ${index} replies` },
      });
    let reply: ScriptedReply;
    try {
      reply = typeof step === "function" ? await step(recorded, index) : step;
    } catch (err) {
      return send(res, 500, { error: { message: `scripted LLM server: ${(err as Error).message}` } });
    }
    if (res.destroyed || req.socket.destroyed) return; // the client gave up (abort) while the reply was held
    if (reply.hang) return; // the client's timeout or abort ends it; close() drops the socket
    if (reply.status && reply.status !== 200) {
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      return res.end(reply.body ?? JSON.stringify({ error: { message: `scripted error ${reply.status}` } }));
    }
    send(
      res,
      200,
      completion(reply, (body as { model?: string } | undefined)?.model ?? "scripted", index),
      reply.headers,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    remaining: () => queue?.length ?? Number.POSITIVE_INFINITY,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function completion(reply: ScriptedReply, model: string, index: number) {
  const toolCalls = (reply.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${index}_${i}`,
    type: "function",
    function: {
      name: c.name,
      arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
    },
  }));
  return {
    id: `chatcmpl-scripted-${index}`,
    object: "chat.completion",
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.content ?? null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
      },
    ],
    usage: {
      prompt_tokens: reply.usage?.promptTokens ?? 10,
      completion_tokens: reply.usage?.completionTokens ?? 5,
      total_tokens: (reply.usage?.promptTokens ?? 10) + (reply.usage?.completionTokens ?? 5),
    },
  };
}

function send(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(payload));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Text of the last message with the given role in a recorded chat request. */
export function lastMessage(
  req: RecordedRequest,
  role: "system" | "user" | "assistant" | "tool",
): string | undefined {
  const messages = (req.body?.messages ?? []) as { role: string; content: string | null }[];
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i]?.role === role) return messages[i]?.content ?? "";
  return undefined;
}
