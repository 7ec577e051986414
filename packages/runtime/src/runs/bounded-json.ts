/** Largest stored JSON per step field; bigger data is cut in the trace and marked (the run keeps it in memory). */
export const MAX_STORED_JSON = 4 * 1024 * 1024;

export interface Bounded {
  json: string;
  truncated: boolean;
}

export function boundedJson(value: unknown, max = MAX_STORED_JSON): Bounded {
  const json = JSON.stringify(value) ?? "null";
  if (json.length <= max) return { json, truncated: false };
  return {
    json: JSON.stringify({ __truncated: true, originalChars: json.length, preview: json.slice(0, Math.min(max, 65_536)) }),
    truncated: true,
  };
}
