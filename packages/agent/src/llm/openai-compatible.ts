/**
 * OpenAI-compatible chat-completions provider (OpenAI, Ollama, vLLM, LM Studio, llama.cpp server).
 * Retries 429/5xx and network failures with bounded exponential backoff, honouring Retry-After.
 */
import {
  type ChatMessage,
  type ChatRequest,
  type ChatResponse,
  type LlmProvider,
  LlmProviderError,
  type ToolCall,
} from "./provider";

export interface OpenAiCompatibleOptions {
  /** Base URL including the version segment, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  apiKey?: string;
  /** Attempts after the first one (default 3). */
  maxRetries?: number;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A Retry-After longer than this is not waited for: the call fails instead (default 60 s). */
  maxRetryAfterMs?: number;
  /** Per-request timeout (default 120 s); the caller's signal also aborts. */
  requestTimeoutMs?: number;
  extraHeaders?: Record<string, string>;
  /**
   * Throws when the API key may not go to this URL (credentials are bound to hosts). Called before
   * every call that carries the key; the host supplies it from the credential's allowed hosts.
   */
  checkKeyHost?: (url: URL) => void;
}

const EXCERPT_CHARS = 300;

export function createOpenAiCompatibleProvider(opts: OpenAiCompatibleOptions): LlmProvider {
  const url = `${opts.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const maxRetries = opts.maxRetries ?? 3;
  const initial = opts.initialBackoffMs ?? 500;
  const maxBackoff = opts.maxBackoffMs ?? 8000;
  const maxRetryAfter = opts.maxRetryAfterMs ?? 60_000;
  const redact = (text: string) => (opts.apiKey ? text.split(opts.apiKey).join("[redacted]") : text);

  return {
    name: "openai-compatible",
    async chat(req: ChatRequest): Promise<ChatResponse> {
      if (opts.apiKey && opts.checkKeyHost) {
        try {
          opts.checkKeyHost(new URL(url));
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          throw new LlmProviderError(message, { status: 0, bodyExcerpt: "", retryable: false, cause: err });
        }
      }
      const body = JSON.stringify(toWire(req));
      const headers: Record<string, string> = { "content-type": "application/json", ...opts.extraHeaders };
      if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
      let lastError: LlmProviderError | undefined;
      for (let attempt = 0; attempt <= maxRetries; attempt++) {
        req.signal?.throwIfAborted();
        const signal = combine(req.signal, opts.requestTimeoutMs ?? 120_000);
        let res: Response;
        try {
          res = await fetch(url, { method: "POST", headers, body, signal });
        } catch (err) {
          if (req.signal?.aborted) throw req.signal.reason;
          lastError = new LlmProviderError(
            `LLM provider request to ${url} failed: ${redact(err instanceof Error ? err.message : String(err))}`,
            { status: 0, bodyExcerpt: "", retryable: true, cause: err },
          );
          if (attempt < maxRetries) await sleep(backoff(attempt, initial, maxBackoff), req.signal);
          continue;
        }
        const text = await res.text();
        if (res.ok) return fromWire(text, url, redact);
        const excerpt = redact(text.slice(0, EXCERPT_CHARS));
        const retryable = res.status === 429 || res.status >= 500;
        const waitMs = retryAfterMs(res.headers.get("retry-after")) ?? backoff(attempt, initial, maxBackoff);
        const attempts = attempt + 1;
        lastError = new LlmProviderError(
          `LLM provider returned HTTP ${res.status} for ${url} after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${excerpt}`,
          { status: res.status, bodyExcerpt: excerpt, retryable },
        );
        if (!retryable || attempt === maxRetries) break;
        if (waitMs > maxRetryAfter) {
          throw new LlmProviderError(
            `LLM provider returned HTTP ${res.status} for ${url} and asked to retry after ${Math.ceil(waitMs / 1000)} s, longer than the ${Math.ceil(maxRetryAfter / 1000)} s limit: ${excerpt}`,
            { status: res.status, bodyExcerpt: excerpt, retryable: false },
          );
        }
        await sleep(waitMs, req.signal);
      }
      throw (
        lastError ??
        new LlmProviderError(`LLM provider call to ${url} failed`, {
          status: 0,
          bodyExcerpt: "",
          retryable: false,
        })
      );
    },
  };
}

function toWire(req: ChatRequest): Record<string, unknown> {
  const wire: Record<string, unknown> = { model: req.model, messages: req.messages.map(messageToWire) };
  if (req.temperature !== undefined) wire.temperature = req.temperature;
  if (req.tools && req.tools.length > 0) {
    wire.tools = req.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  return wire;
}

function messageToWire(m: ChatMessage): Record<string, unknown> {
  switch (m.role) {
    case "system":
    case "user":
      return { role: m.role, content: m.content };
    case "assistant": {
      const out: Record<string, unknown> = { role: "assistant", content: m.content };
      if (m.toolCalls && m.toolCalls.length > 0) {
        out.tool_calls = m.toolCalls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.arguments },
        }));
      }
      return out;
    }
    case "tool":
      return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
  }
}

interface WireChoice {
  message?: {
    content?: string | null;
    tool_calls?: { id?: string; function?: { name?: string; arguments?: string | object } }[];
  };
  finish_reason?: string | null;
}

function fromWire(text: string, url: string, redact: (s: string) => string): ChatResponse {
  let data: {
    choices?: WireChoice[];
    usage?: { prompt_tokens?: number; completion_tokens?: number };
    model?: string;
  };
  try {
    data = JSON.parse(text);
  } catch {
    throw new LlmProviderError(
      `LLM provider at ${url} answered with invalid JSON: ${redact(text.slice(0, EXCERPT_CHARS))}`,
      {
        status: 200,
        bodyExcerpt: redact(text.slice(0, EXCERPT_CHARS)),
        retryable: false,
      },
    );
  }
  const choice = data.choices?.[0];
  if (!choice?.message) {
    throw new LlmProviderError(
      `LLM provider at ${url} answered without a message: ${redact(text.slice(0, EXCERPT_CHARS))}`,
      {
        status: 200,
        bodyExcerpt: redact(text.slice(0, EXCERPT_CHARS)),
        retryable: false,
      },
    );
  }
  const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).map((c, i) => ({
    id: c.id ?? `call_${i}`,
    name: c.function?.name ?? "",
    arguments:
      typeof c.function?.arguments === "string"
        ? c.function.arguments
        : JSON.stringify(c.function?.arguments ?? {}),
  }));
  const response: ChatResponse = {
    content: choice.message.content ?? null,
    toolCalls,
    finishReason: choice.finish_reason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
  };
  if (data.usage) {
    response.usage = {
      promptTokens: data.usage.prompt_tokens ?? 0,
      completionTokens: data.usage.completion_tokens ?? 0,
    };
  }
  if (data.model) response.model = data.model;
  return response;
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function backoff(attempt: number, initial: number, max: number): number {
  return Math.min(max, initial * 2 ** attempt);
}

function combine(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
