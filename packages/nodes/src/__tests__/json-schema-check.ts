/**
 * A small JSON Schema checker for the subset z.toJSONSchema emits for our configs: type,
 * required, properties, additionalProperties, items, enum, const, anyOf/oneOf, string and
 * number bounds. Returns the problems found (empty when the value conforms).
 */
type Schema = Record<string, unknown>;

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case "object":
      return typeof v === "object" && v !== null && !Array.isArray(v);
    case "array":
      return Array.isArray(v);
    case "integer":
      return Number.isInteger(v);
    case "number":
      return typeof v === "number";
    case "null":
      return v === null;
    default:
      return typeof v === type;
  }
}

export function checkJsonSchema(schema: Schema, value: unknown, at = "$"): string[] {
  const problems: string[] = [];
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches) {
    const passing = branches.filter((b) => checkJsonSchema(b, value, at).length === 0);
    if (passing.length === 0) problems.push(`${at}: matches no branch`);
    if (schema.oneOf && passing.length > 1) problems.push(`${at}: matches several oneOf branches`);
  }
  if (typeof schema.type === "string" && !typeOk(schema.type, value))
    return [...problems, `${at}: not ${schema.type}`];
  if ("const" in schema && schema.const !== value)
    problems.push(`${at}: not ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) problems.push(`${at}: not in enum`);
  if (typeof value === "string") {
    if (typeof schema.minLength === "number" && value.length < schema.minLength)
      problems.push(`${at}: too short`);
    if (typeof schema.maxLength === "number" && value.length > schema.maxLength)
      problems.push(`${at}: too long`);
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern).test(value))
      problems.push(`${at}: pattern`);
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) problems.push(`${at}: below minimum`);
    if (typeof schema.maximum === "number" && value > schema.maximum) problems.push(`${at}: above maximum`);
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((v, i) => {
      problems.push(...checkJsonSchema(schema.items as Schema, v, `${at}[${i}]`));
    });
  }
  if (typeOk("object", value)) {
    const obj = value as Record<string, unknown>;
    for (const key of (schema.required as string[] | undefined) ?? []) {
      if (!(key in obj)) problems.push(`${at}.${key}: required`);
    }
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [k, v] of Object.entries(obj)) {
      if (props[k]) problems.push(...checkJsonSchema(props[k], v, `${at}.${k}`));
      else if (schema.additionalProperties === false) problems.push(`${at}.${k}: not allowed`);
      else if (typeof schema.additionalProperties === "object") {
        problems.push(...checkJsonSchema(schema.additionalProperties as Schema, v, `${at}.${k}`));
      }
    }
  }
  return problems;
}

/** Paths of object properties that carry no description (the web form needs a label). */
export function undescribed(schema: Schema, at = "$"): string[] {
  const out: string[] = [];
  const props = schema.properties as Record<string, Schema> | undefined;
  for (const [k, p] of Object.entries(props ?? {})) {
    if (typeof p.description !== "string") out.push(`${at}.${k}`);
    out.push(...undescribed(p, `${at}.${k}`));
  }
  for (const b of [...((schema.anyOf as Schema[]) ?? []), ...((schema.oneOf as Schema[]) ?? [])]) {
    out.push(...undescribed(b, at));
  }
  if (schema.items && typeof schema.items === "object")
    out.push(...undescribed(schema.items as Schema, `${at}[]`));
  return out;
}
