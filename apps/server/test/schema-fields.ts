// The fields of a route's zod schema, for the tests that enumerate every field of every route (route-bodies,
// caseload-matrix): each node with its path, looking through optional, nullable, default and pipe wrappers, into
// objects, arrays (index 0) and every option of a union.
export type ZodDef = Record<string, unknown> & { type: string };
export type FieldPath = (string | number)[];

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch']);

export function schemaNodes(schema: unknown, path: FieldPath = []): { path: FieldPath; def: ZodDef }[] {
  const def = (schema as { _zod?: { def: ZodDef } } | undefined)?._zod?.def;
  if (!def) return [];
  if (WRAPPERS.has(def.type)) return schemaNodes(def.innerType, path);
  switch (def.type) {
    case 'pipe':
      return schemaNodes(def.in, path);
    case 'object':
      return [{ path, def }, ...Object.entries(def.shape as Record<string, unknown>).flatMap(([key, field]) => schemaNodes(field, [...path, key]))];
    case 'array':
      return [{ path, def }, ...schemaNodes(def.element, [...path, 0])];
    case 'union':
      return (def.options as unknown[]).flatMap((option) => schemaNodes(option, path));
    default:
      return [{ path, def }];
  }
}

/** Each path once, in the order first met. */
export function dedupePaths(paths: FieldPath[]): FieldPath[] {
  return [...new Map(paths.map((p) => [p.join('.'), p])).values()];
}
