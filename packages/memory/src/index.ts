export { type BlendPart, createBlendedEmbedder } from "./embed/blend";
export { createDefaultEmbedder } from "./embed/default";
export type { Embedder } from "./embed/embedder";
export { createHashingEmbedder, type HashingEmbedderOptions } from "./embed/hashing";
export { createOpenAiEmbedder, type OpenAiEmbedderOptions } from "./embed/openai";
export { createWordVectorEmbedder, type WordVectorEmbedderOptions } from "./embed/word-vectors";
export { type Flavour, FLAVOURS, resolveFlavour } from "./flavours";
export type { ImportOptions, ImportReport, MemoryIngest } from "./ingest/ingest";
export { type MemoryService, type OpenMemoryOptions, openMemory } from "./open-memory";
export type { ListOptions, MemoryReader, MemoryStatus } from "./read/reader";
export type { UpsertReport } from "./store/item-store";
export type { VectorBackend } from "./store/vectors";
export { createMemoryTools, MEMORY_TOOL_NAMES, readUserFiles } from "./tools/index";
export { memoryFlavourInput } from "./tools/memory-flavour";
export { memoryHybridSearchInput } from "./tools/memory-hybrid-search";
export { memoryRecallInput } from "./tools/memory-recall";
export { type MemoryTool, MemoryToolError } from "./tools/tool";
export {
  DEFAULT_NAMESPACE,
  type ItemInput,
  type ItemPatch,
  itemInput,
  itemPatch,
  MEMORY_KINDS,
  type MemoryItem,
  type MemoryKind,
  type ProgressFn,
  SEARCH_MODES,
  type SearchHit,
  type SearchMode,
} from "./types";
