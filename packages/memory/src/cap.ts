/** Marker appended when a result is cut (spec/AGENTS.md §4). */
export const TRUNCATION_MARKER = "\n[...truncated]";

/** Hard cap on every text the memory service hands to an agent. */
export const MAX_RESULT_CHARS = 4000;

/** Cap for PROFILE.md / MEMORY.md when injected into prompts. */
export const USER_FILE_MAX_CHARS = 2000;

/**
 * Index (in UTF-16 units) just after the first `max` code points of `text`,
 * or -1 when the text has at most `max` code points.
 */
function cutIndex(text: string, max: number): number {
  // Fast path: UTF-16 length is an upper bound on the code point count.
  if (text.length <= max) return -1;
  let points = 0;
  let i = 0;
  while (i < text.length) {
    if (points === max) return i;
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low surrogate is one code point: step over both.
    const pair = unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length;
    const next = pair ? text.charCodeAt(i + 1) : 0;
    i += pair && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    points++;
  }
  return -1;
}

/**
 * spec/AGENTS.md §4: if `text` has more than `max` code points, keep the first `max`
 * and append `\n[...truncated]`; never split a surrogate pair.
 */
export function capChars(text: string, max: number): string {
  if (!Number.isInteger(max) || max < 0) throw new RangeError(`max must be a non-negative integer, got ${max}`);
  const at = cutIndex(text, max);
  return at === -1 ? text : text.slice(0, at) + TRUNCATION_MARKER;
}

/** True when `text` has more than `max` code points. */
export function exceedsChars(text: string, max: number): boolean {
  return cutIndex(text, max) !== -1;
}

/** PROFILE.md / MEMORY.md prompt cap (spec/MEMORY.md): first 2000 code points + a note. */
export function capUserFile(text: string, max = USER_FILE_MAX_CHARS): string {
  const at = cutIndex(text, max);
  return at === -1 ? text : `${text.slice(0, at)}\n[... truncated at ${max} chars]`;
}

/** First `max` code points of `text` (no marker), for one-line previews. */
export function firstChars(text: string, max: number): string {
  const at = cutIndex(text, max);
  return at === -1 ? text : text.slice(0, at);
}
