/**
 * Truthiness of a resolved condition. JS rules, except that the strings "false" and "0"
 * (what a text field or a header gives) are false.
 */
export function isTruthy(value: unknown): boolean {
  if (typeof value === "string") {
    const s = value.trim().toLowerCase();
    return s !== "" && s !== "false" && s !== "0";
  }
  return Boolean(value);
}
