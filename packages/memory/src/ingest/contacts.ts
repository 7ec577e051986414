import { parseCsv } from "./csv";

export interface Contact {
  name: string;
  /** Stable identity inside the file (vCard UID, else the lower-cased name). */
  ref: string;
  fields: Array<[label: string, value: string]>;
  tags: string[];
}

/** Text stored for a person: one "Label: value" fact per line. */
export function contactContent(c: Contact): string {
  return c.fields.map(([label, value]) => `${label}: ${value}`).join("\n");
}

const norm = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, "");
const NAME = ["name", "fullname", "displayname", "contact", "contactname"];
const FIRST = ["firstname", "givenname", "first"];
const LAST = ["lastname", "surname", "familyname", "last"];
const TAGS = ["tags", "categories", "groups", "labels"];
const LABELS: Record<string, string> = {
  email: "Email",
  emailaddress: "Email",
  mail: "Email",
  phone: "Phone",
  phonenumber: "Phone",
  mobile: "Phone",
  telephone: "Phone",
  tel: "Phone",
  company: "Company",
  organization: "Company",
  organisation: "Company",
  org: "Company",
  title: "Title",
  jobtitle: "Title",
  role: "Title",
  notes: "Notes",
  note: "Notes",
};

/** Contacts from a CSV with a header row; unknown columns are kept as "Header: value" facts. */
export function parseContactsCsv(text: string): { contacts: Contact[]; skipped: number } {
  const [header, ...rows] = parseCsv(text);
  if (!header) return { contacts: [], skipped: 0 };
  const keys = header.map(norm);
  const col = (names: string[]) => keys.findIndex((k) => names.includes(k));
  const nameCol = col(NAME);
  const firstCol = col(FIRST);
  const lastCol = col(LAST);
  const tagsCol = col(TAGS);
  if (nameCol < 0 && firstCol < 0 && lastCol < 0) {
    throw new Error("contacts CSV needs a name column (name, full name, or first/last name)");
  }
  let skipped = 0;
  const contacts: Contact[] = [];
  for (const row of rows) {
    const get = (i: number) => (i >= 0 ? (row[i] ?? "").trim() : "");
    const name = get(nameCol) || [get(firstCol), get(lastCol)].filter(Boolean).join(" ");
    if (!name) {
      skipped++;
      continue;
    }
    const fields: Array<[string, string]> = [];
    header.forEach((h, i) => {
      if ([nameCol, firstCol, lastCol, tagsCol].includes(i)) return;
      const value = get(i);
      if (value) fields.push([LABELS[keys[i]!] ?? h.trim(), value]);
    });
    const tags = get(tagsCol)
      .split(/[;,]/)
      .map((t) => t.trim())
      .filter(Boolean);
    contacts.push({ name, ref: name.toLowerCase(), fields, tags });
  }
  return { contacts, skipped };
}
