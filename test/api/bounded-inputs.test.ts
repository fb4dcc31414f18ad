import { describeModule } from '../../src/api/kit/openapi';
import { MODULES } from '../../src/api/modules';

type Schema = Record<string, unknown>;

/** Formats whose values have a length of their own (a date, a time, a UUID). */
const SIZED_FORMATS = new Set(['date', 'date-time', 'time', 'uuid']);

/**
 * Where a request body schema takes input of no declared size: a string without `maxLength` (and no
 * enum, const or sized format), an array without `maxItems`, a map without `maxProperties`.
 */
function unbounded(
  schema: Schema,
  components: Record<string, Schema>,
  at: string,
  seen = new Set<Schema>(),
): string[] {
  const resolved =
    typeof schema.$ref === 'string' ? components[schema.$ref.split('/').pop() as string] : schema;
  if (!resolved || seen.has(resolved)) return [];
  seen.add(resolved);
  const found: string[] = [];
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    for (const part of (resolved[key] as Schema[] | undefined) ?? [])
      found.push(...unbounded(part, components, at, seen));
  const types = ([] as unknown[]).concat(resolved.type ?? []);
  const sized =
    resolved.enum !== undefined ||
    resolved.const !== undefined ||
    SIZED_FORMATS.has(resolved.format as string);
  if (types.includes('string') && resolved.maxLength === undefined && !sized)
    found.push(`${at}: a string of any length`);
  if (types.includes('array')) {
    if (resolved.maxItems === undefined) found.push(`${at}: an array of any length`);
    if (resolved.items) found.push(...unbounded(resolved.items as Schema, components, `${at}[]`, seen));
  }
  for (const [name, property] of Object.entries((resolved.properties as Record<string, Schema>) ?? {}))
    found.push(...unbounded(property, components, `${at}.${name}`, seen));
  const extra = resolved.additionalProperties;
  if (extra && typeof extra === 'object') {
    if (resolved.maxProperties === undefined) found.push(`${at}: a map of any size`);
    found.push(...unbounded(extra as Schema, components, `${at}{}`, seen));
  }
  return found;
}

/** Every request body every module describes, by module and route. */
const bodies = MODULES.flatMap((module) => {
  const description = describeModule(module).runtime as {
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
    components?: { schemas?: Record<string, Schema> };
  };
  const components = description.components?.schemas ?? {};
  return Object.entries(description.paths).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) => {
      const schema = operation.requestBody?.content['application/json']?.schema;
      return schema ? [[`${module.id} ${method.toUpperCase()} ${path}`, schema, components] as const] : [];
    }),
  );
});

describe('request bodies', () => {
  it.each(bodies)('%s: every field the body takes has a documented size', (_route, schema, components) => {
    expect(unbounded(schema, components, 'body')).toEqual([]);
  });
});
