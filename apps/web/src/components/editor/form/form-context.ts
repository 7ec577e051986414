"use client";

import { createContext, useContext } from "react";
import type { JsonSchema } from "@switchyard/contracts";

export interface FormContextValue {
  /** Problems by dotted config path, from the engine's validator. */
  problems: ReadonlyMap<string, string[]>;
  /** Ids of the flow's nodes, for `nodes.<id>` completion. */
  nodeIds: readonly string[];
  /** Prefix for DOM ids, so two forms never share a label target. */
  idPrefix: string;
  /** Called when a field loses focus: the next keystroke starts a new undo step. */
  onFieldBlur(): void;
  /** The saved flow and node whose data expression help (paths, preview) is taken from. */
  help?: { flowId: string; nodeId: string };
}

export const FormContext = createContext<FormContextValue>({
  problems: new Map(),
  nodeIds: [],
  idPrefix: "f",
  onFieldBlur: () => {},
});

export const useForm = () => useContext(FormContext);

export interface FieldProps {
  /** Property name in the parent object (or index label inside lists). */
  name: string;
  schema: JsonSchema;
  value: unknown;
  onChange(value: unknown): void;
  /** Dotted path from the config root, matching the validator's `field`. */
  path: string;
  required?: boolean;
  /** Hide the label (list items, record values). */
  bare?: boolean;
}

export function domId(prefix: string, path: string): string {
  return `${prefix}-${path.replace(/[^A-Za-z0-9_-]/g, "_") || "root"}`;
}
