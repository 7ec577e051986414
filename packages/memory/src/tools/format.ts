import { firstChars } from "@switchyard/contracts/cap";
import type { MemoryItem } from "../types";

/** One line per hit: collapse whitespace so multi-line notes don't break the list. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Key as shown to the agent; transcripts carry their thread so the agent can cite `(transcript: <thread>)`. */
export function displayKey(item: MemoryItem): string {
  const key = oneLine(item.key);
  return item.kind === "transcript" && item.thread ? `${key} (thread: ${oneLine(item.thread)})` : key;
}

/** Cuts one hit's text so a single long note can't crowd the other hits out of the 4000-char answer. */
export function preview(text: string, max: number): string {
  const flat = oneLine(text);
  const cut = firstChars(flat, max);
  return cut.length < flat.length ? `${cut}…` : cut;
}

export const percent = (score: number) => `${Math.round(Math.max(0, Math.min(1, score)) * 100)}%`;
