import { z } from "zod";
import { FLAVOURS, resolveFlavour, unknownFlavourMessage } from "../flavours";
import type { MemoryReader } from "../read/reader";
import { defineMemoryTool, type MemoryTool, MemoryToolError } from "./tool";

export const memoryFlavourInput = z.object({
  flavour: z
    .string({ error: "flavour cannot be empty" })
    .trim()
    .min(1, { error: "flavour cannot be empty" })
    .describe(`One of: ${FLAVOURS.join(", ")} (aliases: comms, coding, env, rules, dislikes)`),
});

export function memoryFlavourTool(reader: MemoryReader): MemoryTool {
  return defineMemoryTool({
    name: "memory_flavour",
    description:
      "Returns one distilled style facet of the user (communication, coding_style, stack, workflow, environment, directives, anti_preferences).",
    inputSchema: memoryFlavourInput,
    run({ flavour }) {
      const name = resolveFlavour(flavour);
      if (name === null) throw new MemoryToolError(unknownFlavourMessage(flavour));
      const doc = reader.flavour(name);
      // Not built yet is a normal state, not an error: the agent should just carry on without it.
      if (doc === null || doc.trim() === "") return `The '${name}' flavour has not been built yet.`;
      return doc;
    },
  });
}
