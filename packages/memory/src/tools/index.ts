import { capUserFile } from "@switchyard/contracts/cap";
import type { MemoryReader } from "../read/reader";
import { memoryFlavourTool } from "./memory-flavour";
import { memoryHybridSearchTool } from "./memory-hybrid-search";
import { memoryRecallTool } from "./memory-recall";
import type { MemoryTool } from "./tool";

export const MEMORY_TOOL_NAMES = ["memory_recall", "memory_hybrid_search", "memory_flavour"] as const;

/** The three read-only agent tools over a reader. */
export function createMemoryTools(reader: MemoryReader): MemoryTool[] {
  return [memoryRecallTool(reader), memoryHybridSearchTool(reader), memoryFlavourTool(reader)];
}

/** PROFILE.md and MEMORY.md for prompt injection, each capped at 2000 chars with the truncation note. */
export function readUserFiles(reader: MemoryReader): { profile: string; memory: string } {
  const { profile, memory } = reader.userFiles();
  return { profile: capUserFile(profile), memory: capUserFile(memory) };
}
