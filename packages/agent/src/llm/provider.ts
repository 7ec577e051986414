/** The provider-neutral chat interface the agent loop talks to. */

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text as the model produced it; parsed and validated by the loop. */
  arguments: string;
}

export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  model: string;
  messages: readonly ChatMessage[];
  tools?: readonly ToolSpec[];
  temperature?: number;
  signal?: AbortSignal;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatResponse {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string;
  usage?: TokenUsage;
  /** The model the server says answered (may differ from the requested alias). */
  model?: string;
}

export interface LlmProvider {
  /** Short label for traces, e.g. `openai-compatible`. Never contains credentials. */
  readonly name: string;
  chat(req: ChatRequest): Promise<ChatResponse>;
}

/** A provider failure: HTTP status (0 for network errors) and an excerpt of the body. */
export class LlmProviderError extends Error {
  readonly status: number;
  readonly bodyExcerpt: string;
  readonly retryable: boolean;
  constructor(
    message: string,
    opts: { status: number; bodyExcerpt: string; retryable: boolean; cause?: unknown },
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "LlmProviderError";
    this.status = opts.status;
    this.bodyExcerpt = opts.bodyExcerpt;
    this.retryable = opts.retryable;
  }
}
