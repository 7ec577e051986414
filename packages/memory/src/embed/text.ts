// Shared text helpers for the lexical query builder and the hashing embedder.

const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could did do does doing for from had has have how i if in into is it its " +
    "me my of on or our ours should so than that the their them then there these they this those to was we were what " +
    "when where which who whom why will with would you your yours us he she his her him about any all also just not " +
    "no nor only own same some such too very s t don doesn get got needs need want wants"
  ).split(" "),
);

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** Lower-cased words (letters and digits), diacritics removed. */
export function words(text: string): string[] {
  const folded = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Words without stop words; falls back to all words when only stop words remain. */
export function contentWords(text: string): string[] {
  const all = words(text);
  const kept = all.filter((w) => !STOPWORDS.has(w));
  return kept.length > 0 ? kept : all;
}

const SUFFIXES: Array<[string, string]> = [
  ["ational", "ate"],
  ["ization", "ize"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ations", "ate"],
  ["ation", "ate"],
  ["ments", ""],
  ["ment", ""],
  ["ingly", ""],
  ["edly", ""],
  ["ings", ""],
  ["ing", ""],
  ["ies", "y"],
  ["ied", "y"],
  ["ers", ""],
  ["er", ""],
  ["ed", ""],
  ["ly", ""],
  ["es", ""],
  ["s", ""],
];

/** Light suffix stripping so "invoices", "invoiced" and "invoicing" share a feature. */
export function stem(word: string): string {
  if (word.length <= 3 || /^\d/.test(word)) return word;
  for (const [suffix, replacement] of SUFFIXES) {
    if (!word.endsWith(suffix)) continue;
    if (suffix === "s" && (word.endsWith("ss") || word.endsWith("us") || word.endsWith("is"))) return word;
    const base = word.slice(0, -suffix.length) + replacement;
    if (base.length < 3) return word;
    // Strip a trailing "e" too so "invoice" and "invoic(ing)" meet.
    return base.endsWith("e") && base.length > 3 ? base.slice(0, -1) : base;
  }
  return word.endsWith("e") && word.length > 4 ? word.slice(0, -1) : word;
}
