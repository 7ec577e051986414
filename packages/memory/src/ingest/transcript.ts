import { z } from "zod";

export interface Utterance {
  speaker: string;
  text: string;
  at?: string;
}

const jsonTranscript = z.array(
  z.object({ speaker: z.string().trim().min(1), text: z.string(), at: z.string().optional() }),
);

/** A JSON array of {speaker, text, at?}, or plain text with `Speaker: text` lines. */
export function parseTranscript(text: string, format: "json" | "text"): Utterance[] {
  if (format === "json") {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new Error(`transcript is not valid JSON: ${(err as Error).message}`);
    }
    const parsed = jsonTranscript.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(
        `transcript JSON must be an array of {speaker, text, at?}: at [${issue.path.join(".")}]: ${issue.message}`,
      );
    }
    return parsed.data.map((u) => (u.at ? { speaker: u.speaker, text: u.text, at: u.at } : u));
  }
  return parseSpeakerLines(text);
}

// Optional "[time]" or "10:30" prefix, then "Speaker: text". Speakers are short and contain no "://".
const LINE = /^\s*(?:\[([^\]]{1,40})\]\s*|(\d{1,2}:\d{2}(?::\d{2})?)\s+)?([^:\n]{1,60}?):\s+(.*)$/;

function parseSpeakerLines(text: string): Utterance[] {
  const out: Utterance[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (raw.trim() === "") continue;
    const m = raw.match(LINE);
    if (m && !m[3]!.includes("//")) {
      const u: Utterance = { speaker: m[3]!.trim(), text: m[4]!.trim() };
      const at = m[1] ?? m[2];
      if (at) u.at = at.trim();
      out.push(u);
    } else if (out.length > 0) {
      // A line without a speaker continues the previous utterance.
      const last = out[out.length - 1]!;
      last.text = `${last.text}\n${raw.trim()}`;
    }
  }
  if (out.length === 0) throw new Error("transcript has no 'Speaker: text' lines");
  return out;
}
