/**
 * Bounded building blocks for request schemas: ids and page numbers that fit the database's integer
 * columns, and free text that may span lines. plugins/input-guard.ts enforces the rest centrally (no
 * control characters, defaults for any bound a schema leaves out).
 */
import { Type, type TSchema, type TString } from 'typebox';

/** The largest value of a PostgreSQL `integer` (int4) column; every id and count we store fits in it. */
export const INT4_MAX = 2_147_483_647;
export const INT4_MIN = -2_147_483_648;

/** A row id (customers, plans, instalments, payments ...). */
export const Id = Type.Integer({ minimum: 1, maximum: INT4_MAX });

/** Text that must say something: spaces alone are refused by validation (400), not stored trimmed to nothing. */
export const NOT_BLANK = '\\S';

/** A page number of a list: far beyond any real list, small enough that (page - 1) * limit stays an int4. */
export const Page = Type.Integer({ minimum: 1, maximum: 100_000, default: 1 });

/**
 * Marks a string schema whose value may contain tabs and line breaks (addresses, messages, notes). Every
 * other string of a request is refused with any control character in it; the mark is a symbol, so it is
 * invisible to the validator and to the OpenAPI document.
 */
export const MULTILINE = Symbol.for('kisht.multiline-text');

/** Free text that may span lines; other control characters are still refused. */
export function MultilineText(options: { minLength?: number; maxLength: number; description?: string; pattern?: string }): TString {
  const schema = Type.String(options);
  (schema as unknown as Record<symbol, boolean>)[MULTILINE] = true;
  return schema;
}

/** Whether a request schema allows line breaks in its text (see MultilineText). */
export function isMultiline(schema: TSchema | Record<string, unknown> | undefined): boolean {
  return schema !== undefined && (schema as Record<symbol, unknown>)[MULTILINE] === true;
}
