/**
 * The one truncation rule (spec/AGENTS.md §4, spec/MEMORY.md): memory and agent code both cap text with
 * `capChars`, so a capped text is at most its limit, marker included.
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
  /** Length of the input in the cap's unit (characters unless asked for bytes), for the trace. */
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
  /** What `max` counts: characters (code points, default), or UTF-8 bytes for prompt parts bounded in bytes. */
  unit?: "chars" | "utf8";
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

const encoder = new TextEncoder();

/** Size of `text` in UTF-8 bytes. */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/** Longest prefix of `text` whose UTF-8 encoding fits `maxBytes`, never splitting a code point. */
export function firstUtf8Bytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

const UNITS = {
  chars: { length: charLength, prefix: firstChars },
  utf8: { length: utf8Length, prefix: firstUtf8Bytes },
} as const;

/**
 * Caps `text` at `max` characters (code points; UTF-8 bytes with `unit: "utf8"`). When it is longer, it
 * keeps as much of the start as fits beside the marker, so the result is never longer than `max`, marker
 * included. A `max` smaller than the marker keeps the start without it (the cap is the promise).
 */
export function capChars(text: string, max: number, options: CapOptions = {}): CapResult {
  if (!Number.isInteger(max) || max < 0)
    throw new RangeError(`max must be a non-negative integer, got ${max}`);
  const unit = UNITS[options.unit ?? "chars"];
  const marker = options.marker ?? TRUNCATION_MARKER;
  const originalLength = unit.length(text);
  if (originalLength <= max) return { text, truncated: false, originalLength };
  if (options.budget === "content")
    return { text: unit.prefix(text, max) + marker, truncated: true, originalLength };
  const room = max - unit.length(marker);
  const capped = room < 0 ? unit.prefix(text, max) : unit.prefix(text, room) + marker;
  return { text: capped, truncated: true, originalLength };
}

/** PROFILE.md / MEMORY.md prompt cap (spec/MEMORY.md): the first `max` characters, then the note. */
export function capUserFile(text: string, max = USER_FILE_MAX_CHARS): string {
  return capChars(text, max, { marker: `\n[... truncated at ${max} chars]`, budget: "content" }).text;
}
