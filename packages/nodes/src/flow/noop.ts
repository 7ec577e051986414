import { z } from "zod";
import { defineNode } from "../define";

/** Passes items through unchanged; useful as a junction or a placeholder with a name. */
export const noopNode = defineNode({
  type: "flow.noop",
  typeVersion: 1,
  pure: true,
  title: "No operation",
  description: "Passes items through unchanged.",
  category: "flow",
  icon: "arrow-right",
  ports: ["main"],
  config: z.object({}),
  example: {},
  async execute({ input }) {
    return { items: input };
  },
});
