/**
 * What every request is held to before a handler sees it, in one place rather than per route:
 * - bounds: request schemas get the limits they leave out (integers within PostgreSQL's int4, field strings
 *   and arrays of a sane size), so no value reaches a column that cannot hold it; the OpenAPI document shows them;
 * - text: no control characters in the query, the path or a JSON body (PostgreSQL refuses NUL in text and
 *   jsonb, and the rest has no business in names or ids); tabs and line breaks only in MultilineText fields;
 * - numbers: none that is not finite (the validator turns a query value like `1e400` into Infinity).
 * Registered before the feature routes, as a fastify-plugin, so its hooks are the root's and see every route.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../errors.ts';
import { INT4_MAX, INT4_MIN, isMultiline } from '@kisht/contract/fields';

/** A field string with no maxLength of its own gets this one. */
export const DEFAULT_MAX_LENGTH = 1000;
/** An array with no maxItems of its own gets this one. */
export const DEFAULT_MAX_ITEMS = 1000;

type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema | Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

const isSchema = (value: unknown): value is Schema => value !== null && typeof value === 'object' && !Array.isArray(value);
const typesOf = (schema: Schema) => (Array.isArray(schema.type) ? schema.type : [schema.type]);
const branchesOf = (schema: Schema) => [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];

/** Fills in the bounds a request schema leaves out. A body that is itself one string (a document) is left alone. */
function addBounds(schema: unknown, isField: boolean, seen: WeakSet<object>): void {
  if (!isSchema(schema) || seen.has(schema)) return;
  seen.add(schema);
  const types = typesOf(schema);
  if (types.includes('integer')) {
    schema.maximum ??= INT4_MAX;
    schema.minimum ??= INT4_MIN;
  }
  // File parts (format binary) are bounded by the upload's own size limit.
  if (isField && types.includes('string') && schema.maxLength === undefined && schema.enum === undefined && schema.const === undefined && schema.format !== 'binary') {
    schema.maxLength = DEFAULT_MAX_LENGTH;
  }
  if (types.includes('array') && schema.maxItems === undefined) schema.maxItems = DEFAULT_MAX_ITEMS;
  for (const child of Object.values(schema.properties ?? {})) addBounds(child, true, seen);
  for (const child of Object.values(schema.patternProperties ?? {})) addBounds(child, true, seen);
  if (isSchema(schema.additionalProperties)) addBounds(schema.additionalProperties, true, seen);
  for (const child of [schema.items ?? []].flat()) addBounds(child, true, seen);
  for (const branch of branchesOf(schema)) addBounds(branch, isField, seen);
}

/** The request schemas of a route: one per part, or one per content type of the body. */
function requestSchemas(route: RouteOptions): unknown[] {
  const schema = route.schema as Record<string, unknown> | undefined;
  if (!schema) return [];
  const body = schema.body as { content?: Record<string, { schema?: unknown }> } | undefined;
  const bodies = body?.content ? Object.values(body.content).map((c) => c.schema) : [body];
  return [...bodies, schema.querystring, schema.params];
}

/** Any C0 or C1 control character, DEL included. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, less tab, line feed and carriage return. */
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** The schema of `key` inside `schema` (a property, a record value, an array item, in any branch of a union). */
function childSchema(schema: Schema | undefined, key: string | number): Schema | undefined {
  if (!schema) return undefined;
  if (typeof key === 'number') {
    const items = Array.isArray(schema.items) ? schema.items[key] : schema.items;
    if (items) return items;
  } else {
    const property = schema.properties?.[key];
    if (property) return property;
    const patterned = Object.values(schema.patternProperties ?? {})[0];
    if (patterned) return patterned;
    if (isSchema(schema.additionalProperties)) return schema.additionalProperties;
  }
  for (const branch of branchesOf(schema)) {
    const found = childSchema(branch, key);
    if (found) return found;
  }
  return undefined;
}

const allowsLines = (schema: Schema | undefined) => schema !== undefined && (isMultiline(schema) || branchesOf(schema).some(allowsLines));

/** The path (`sims.0.operator`) of the first text with a control character it may not hold, or null. */
export function findControlCharacters(value: unknown, schema: Schema | undefined): string | null {
  // Iterative, each entry pointing at its parent: a deeply nested body costs linear time and no call stack.
  interface Entry { value: unknown; schema: Schema | undefined; key: string | number | null; parent: Entry | null }
  const pathOf = (entry: Entry, last?: string) => {
    const keys: Array<string | number> = last === undefined ? [] : [last];
    for (let at: Entry | null = entry; at && at.key !== null; at = at.parent) keys.push(at.key);
    return keys.reverse().join('.').slice(0, 200);
  };
  const stack: Entry[] = [{ value, schema, key: null, parent: null }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const here = entry.value;
    if (typeof here === 'string') {
      if ((allowsLines(entry.schema) ? CONTROL_BUT_LINES : CONTROL).test(here)) return pathOf(entry);
    } else if (Array.isArray(here)) {
      here.forEach((item, i) => stack.push({ value: item, schema: childSchema(entry.schema, i), key: i, parent: entry }));
    } else if (here !== null && typeof here === 'object' && !ArrayBuffer.isView(here)) {
      for (const [key, item] of Object.entries(here)) {
        if (CONTROL.test(key)) return pathOf(entry, key);
        stack.push({ value: item, schema: childSchema(entry.schema, key), key, parent: entry });
      }
    }
  }
  return null;
}

function refuse(field: string, message: string, rule: 'control_characters' | 'invalid'): AppError {
  return new AppError('VALIDATION_FAILED', { details: [{ field: field || 'body', message, rule }] });
}

function routeSchema(request: FastifyRequest, part: 'body' | 'querystring' | 'params'): Schema | undefined {
  const schema = (request.routeOptions.schema as Record<string, unknown> | undefined)?.[part];
  return isSchema(schema) ? schema : undefined;
}

async function inputGuard(app: FastifyInstance) {
  const seen = new WeakSet<object>();
  app.addHook('onRoute', (route) => {
    for (const schema of requestSchemas(route)) addBounds(schema, false, seen);
  });

  app.addHook('preValidation', async (request) => {
    const parts: Array<[unknown, Schema | undefined]> = [[request.params, routeSchema(request, 'params')], [request.query, routeSchema(request, 'querystring')]];
    // A body that is one string (an MDM plist, say) is a document with its own format, not a field.
    if (request.body !== null && typeof request.body === 'object') parts.push([request.body, routeSchema(request, 'body')]);
    for (const [value, schema] of parts) {
      const field = findControlCharacters(value, schema);
      if (field !== null) throw refuse(field, 'must not contain control characters', 'control_characters');
    }
  });

  app.addHook('preHandler', async (request) => {
    for (const values of [request.query, request.params]) {
      if (values === null || typeof values !== 'object') continue;
      for (const [name, value] of Object.entries(values)) {
        if ([value].flat().some((v) => typeof v === 'number' && !Number.isFinite(v))) throw refuse(name, 'must be a finite number', 'invalid');
      }
    }
  });
}

export default fp(inputGuard, { name: 'input-guard' });
