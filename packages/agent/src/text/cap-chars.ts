/** Character (code point) caps for agent output and injected files (spec §3, §4). */

export const RESULT_TRUNCATION_MARK = "\n[...truncated]";

export interface CapResult {
  text: string;
  truncated: boolean;
  /** Length of the input in code points. */
  originalLength: number;
}

/** Code point count; a surrogate pair counts once, as the spec's "characters" do. */
export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** First `max` code points of `text` (never splitting a surrogate pair). */
export function sliceChars(text: string, max: number): string {
  if (max <= 0) return "";
  let count = 0;
  let end = 0;
  for (const ch of text) {
    if (count === max) break;
    count++;
    end += ch.length;
  }
  return text.slice(0, end);
}

/**
 * Keeps the first `max` code points and appends `mark` when the text is longer
 * (the mark is not counted against `max`, as spec §4 describes).
 */
export function capChars(text: string, max: number, mark: string = RESULT_TRUNCATION_MARK): CapResult {
  const originalLength = charLength(text);
  if (originalLength <= max) return { text, truncated: false, originalLength };
  return { text: sliceChars(text, max) + mark, truncated: true, originalLength };
}

/** PROFILE.md / MEMORY.md injection cap with its note (spec §3). */
export function capUserFile(text: string, max = 2000): string {
  return capChars(text, max, `\n[... truncated at ${max} chars]`).text;
}
