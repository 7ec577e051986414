/** @switchyard/agent — agent definitions, tool policy, prompts, LLM providers, the agent loop and runner. */
export * from "./contract";
export * from "./definitions/index";
export * from "./llm/openai-compatible";
export * from "./llm/provider";
export * from "./loop/index";
export * from "./policy/index";
export * from "./prompt/index";
export * from "./runner/index";
export * from "./testing/scripted-llm-server";
export * from "./tools/actions";
export * from "./tools/http-get";
export * from "./tools/tool";
