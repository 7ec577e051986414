/**
 * The one truncation rule (spec/AGENTS.md §4, spec/MEMORY.md). It lives here because both packages
 * need it and memory imports nothing of the agent's; agent code imports it as `@switchyard/memory/cap`,
 * a dependency-free module, so it does not load the store.
 */

/** Marker appended when a result is cut; it counts against the limit. */
export const TRUNCATION_MARKER = "\n[...truncated]";

/** Hard cap on every text the memory service hands to an agent. */
export const MAX_RESULT_CHARS = 4000;

/** Cap for PROFILE.md / MEMORY.md when injected into prompts. */
export const USER_FILE_MAX_CHARS = 2000;

export interface CapResult {
  text: string;
  truncated: boolean;
  /** Length of the input in characters (code points), for the trace. */
  originalLength: number;
}

export interface CapOptions {
  /** Appended when the text is cut; default `\n[...truncated]`. */
  marker?: string;
  /**
   * `total` (default): the result, marker included, is at most `max` characters.
   * `content`: keep `max` characters, then the marker — for user files, whose note names the cut point.
   */
  budget?: "total" | "content";
}

/** Index (UTF-16 units) just after the first `max` code points; `text.length` when it has fewer. */
function endOfChars(text: string, max: number): number {
  let points = 0;
  let i = 0;
  while (i < text.length && points < max) {
    const unit = text.charCodeAt(i);
    const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    // A high surrogate followed by a low one is one code point: step over both.
    i += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    points++;
  }
  return i;
}

/** Number of characters (code points); a surrogate pair counts once, a lone surrogate once. */
export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** First `max` characters of `text` (no marker), never splitting a surrogate pair; for previews. */
export function firstChars(text: string, max: number): string {
  return text.slice(0, endOfChars(text, Math.max(0, max)));
}

/**
 * Caps `text` at `max` characters (code points). When it is longer, it keeps as many leading
 * characters as fit beside the marker, so the result is never longer than `max`, marker included.
 * A `max` smaller than the marker keeps the first `max` characters without it (the cap is the promise).
 */
export function capChars(text: string, max: number, options: CapOptions = {}): CapResult {
  if (!Number.isInteger(max) || max < 0)
    throw new RangeError(`max must be a non-negative integer, got ${max}`);
  const marker = options.marker ?? TRUNCATION_MARKER;
  // UTF-16 length bounds the code point count from above: most texts skip the count.
  if (text.length <= max) return { text, truncated: false, originalLength: charLength(text) };
  const originalLength = charLength(text);
  if (originalLength <= max) return { text, truncated: false, originalLength };
  if (options.budget === "content")
    return { text: firstChars(text, max) + marker, truncated: true, originalLength };
  const room = max - charLength(marker);
  const capped = room < 0 ? firstChars(text, max) : firstChars(text, room) + marker;
  return { text: capped, truncated: true, originalLength };
}

/** PROFILE.md / MEMORY.md prompt cap (spec/MEMORY.md): the first `max` characters, then the note. */
export function capUserFile(text: string, max = USER_FILE_MAX_CHARS): string {
  return capChars(text, max, { marker: `\n[... truncated at ${max} chars]`, budget: "content" }).text;
}
