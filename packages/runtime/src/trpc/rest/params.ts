import { z } from "zod";

/** Path parameter `{id}`. */
export const idParams = z.strictObject({ id: z.string().min(1).max(200).describe("Id") });

/** `?flag=true|false|1|0` (query strings carry text, not booleans). */
export const queryBool = z
  .enum(["true", "false", "1", "0"], { error: "expected true or false" })
  .transform((v) => v === "true" || v === "1");

/** A positive whole number in a query string. */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, "expected a whole number")
    .transform(Number)
    .pipe(z.int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
