/**
 * Turns what a person types into the runs page's search box into an FTS5 query over `RunSearch`.
 *
 * Each whitespace-separated word becomes a quoted phrase with a trailing `*`: FTS5 splits it with the
 * index's own tokenizer (so `alice@example.com` is the phrase `alice example com`) and matches the last
 * token as a prefix. All words must occur in the same text (the run's payload and error, or one step's
 * error). Quoting makes FTS5 operators (`AND`, `NEAR`, `-`, `:`) plain text: user input is never syntax.
 */
export function toFtsQuery(text: string): string {
  const words = text
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w)) // a word of punctuation alone has no token to look for
    .map((w) => `"${w.replaceAll('"', '""')}"*`);
  if (words.length === 0)
    throw new RangeError(`search "${text}" has no letter or digit to look for: search matches whole words`);
  return words.join(" ");
}

/** The indexed text is split into tokens on anything but letters and digits (FTS5 `unicode61`). */
export const SEARCH_INDEXED_PAYLOAD_CHARS = 8192;
