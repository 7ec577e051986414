import type { Contact } from "./contacts";

const unescapeValue = (v: string) =>
  v.replace(/\\([nN,;\\])/g, (_, c: string) => (c === "n" || c === "N" ? "\n" : c));

// Split on separators that are not backslash-escaped.
const splitUnescaped = (v: string, sep: string) => v.split(new RegExp(`(?<!\\\\)${sep === ";" ? ";" : ","}`));

const LABELS: Record<string, string> = {
  EMAIL: "Email",
  TEL: "Phone",
  ORG: "Company",
  TITLE: "Title",
  ROLE: "Role",
  NOTE: "Notes",
  ADR: "Address",
  URL: "Website",
  BDAY: "Birthday",
};

/** vCard 3.0 / 4.0 (also tolerates 2.1 without quoted-printable): one Contact per BEGIN:VCARD. */
export function parseVcards(text: string): { contacts: Contact[]; skipped: number } {
  // Unfold continuation lines (RFC 6350 §3.2) first.
  const lines = text
    .replace(/\r\n/g, "\n")
    .replace(/\n[ \t]/g, "")
    .split("\n");
  const contacts: Contact[] = [];
  let skipped = 0;
  let card: Array<[string, string]> | null = null;
  for (const line of lines) {
    if (/^BEGIN:VCARD\s*$/i.test(line)) card = [];
    else if (/^END:VCARD\s*$/i.test(line)) {
      const c = card ? toContact(card) : null;
      if (c) contacts.push(c);
      else skipped++;
      card = null;
    } else if (card) {
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      const name = line
        .slice(0, colon)
        .split(";")[0]!
        .replace(/^[^.]+\./, "")
        .toUpperCase();
      card.push([name, line.slice(colon + 1)]);
    }
  }
  return { contacts, skipped };
}

function toContact(props: Array<[string, string]>): Contact | null {
  const first = (p: string) => props.find(([n]) => n === p)?.[1];
  let name = unescapeValue(first("FN") ?? "").trim();
  if (!name) {
    const n = first("N");
    if (n) {
      const [family = "", given = "", additional = "", prefix = "", suffix = ""] = splitUnescaped(n, ";").map(
        unescapeValue,
      );
      name = [prefix, given, additional, family, suffix]
        .map((s) => s.trim())
        .filter(Boolean)
        .join(" ");
    }
  }
  if (!name) return null;
  const fields: Array<[string, string]> = [];
  let tags: string[] = [];
  for (const [prop, raw] of props) {
    if (prop === "CATEGORIES") {
      tags = splitUnescaped(raw, ",")
        .map((t) => unescapeValue(t).trim())
        .filter(Boolean);
      continue;
    }
    const label = LABELS[prop];
    if (!label) continue;
    let value: string;
    if (prop === "ORG" || prop === "ADR") {
      value = splitUnescaped(raw, ";")
        .map(unescapeValue)
        .map((s) => s.trim())
        .filter(Boolean)
        .join(", ");
    } else value = unescapeValue(raw).trim();
    if (prop === "TEL") value = value.replace(/^tel:/i, "");
    if (prop === "EMAIL") value = value.replace(/^mailto:/i, "");
    if (value) fields.push([label, value]);
  }
  const uid = first("UID")?.trim();
  return { name, ref: uid ? `uid:${uid}` : name.toLowerCase(), fields, tags };
}
