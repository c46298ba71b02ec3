/// <reference types="node" />
// Every translation key the console names literally must exist in en.json, the source the other
// nine dictionaries are translated from; and en.json must stay plain text.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../', import.meta.url).pathname;
const EN = JSON.parse(readFileSync(new URL('../../../../locales/en.json', import.meta.url), 'utf8')) as Record<string, unknown>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.includes('.test.') ? [path] : [];
  });
}

function lookup(key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), EN);
}

function leaves(node: unknown, prefix = ''): [string, string][] {
  if (typeof node === 'string') return [[prefix, node]];
  if (!node || typeof node !== 'object') return [[prefix, String(node)]];
  return Object.entries(node).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

const KEY_PATTERNS = [
  /\bt\('([\w.]+)'/g,
  /\b(?:label|successKey): '(\w+\.[\w.]+)'/g,
  /toastKey\('\w+', '([\w.]+)'\)/g,
  /'(routeError\.\w+)'/g,
];

describe('en.json', () => {
  it('has every literal key the console uses', () => {
    const missing: string[] = [];
    let found = 0;
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of KEY_PATTERNS) {
        for (const match of text.matchAll(pattern)) {
          found += 1;
          if (typeof lookup(match[1]!) !== 'string') missing.push(`${match[1]} (${file.slice(SRC.length)})`);
        }
      }
    }
    expect(found).toBeGreaterThan(100); // the scan itself works
    expect(missing).toEqual([]);
  });

  it('keeps a message for every server error code and transport failure', () => {
    for (const code of ['VALIDATION_FAILED', 'SESSION_INVALID', 'MPIN_INVALID', 'FETCH_ERROR', 'TIMEOUT_ERROR', 'PARSING_ERROR', 'generic']) {
      expect(typeof lookup(`errors.${code}`)).toBe('string');
    }
  });

  it('holds plain strings: no HTML, well-formed {{placeholders}}', () => {
    for (const [key, value] of leaves(EN)) {
      expect(value, key).not.toMatch(/<\/?[a-z][^>]*>/i);
      expect(value.replace(/\{\{\w+\}\}/g, ''), key).not.toMatch(/[{}]/);
    }
  });
});
