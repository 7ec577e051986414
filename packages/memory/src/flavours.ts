export const FLAVOURS = [
  "communication",
  "coding_style",
  "stack",
  "workflow",
  "environment",
  "directives",
  "anti_preferences",
] as const;
export type Flavour = (typeof FLAVOURS)[number];

const ALIASES: Record<string, Flavour> = {
  comms: "communication",
  coding: "coding_style",
  env: "environment",
  rules: "directives",
  dislikes: "anti_preferences",
};

/** Canonical facet name for a name or alias (case-insensitive), or null when unknown. */
export function resolveFlavour(name: string): Flavour | null {
  const key = name.trim().toLowerCase();
  if ((FLAVOURS as readonly string[]).includes(key)) return key as Flavour;
  return ALIASES[key] ?? null;
}

export function unknownFlavourMessage(name: string): string {
  return `Unknown flavour '${name}'. Valid flavours: ${FLAVOURS.join(", ")}`;
}
