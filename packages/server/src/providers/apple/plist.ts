/**
 * XML property lists, the format of Apple's MDM messages and configuration profiles: a writer for what we
 * send and a small reader for what devices send (dict, array, string, integer, real, true, false, date, data).
 * Binary plists are not read: MDM clients send XML.
 */

/** Bytes in a plist (<data>): kept apart from strings so they are written as base64. */
export class PlistData {
  constructor(readonly bytes: Buffer) {}
}

export type PlistValue = string | number | boolean | Date | PlistData | PlistReal | PlistValue[] | { [key: string]: PlistValue | undefined };

/** An integer written as <real> (coordinates that happen to be whole numbers stay reals). */
export class PlistReal {
  constructor(readonly value: number) {}
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function write(value: PlistValue, indent: string, out: string[]): void {
  const next = `${indent}\t`;
  if (value instanceof PlistReal) out.push(`${indent}<real>${value.value}</real>`);
  else if (value instanceof PlistData) out.push(`${indent}<data>${value.bytes.toString('base64')}</data>`);
  else if (value instanceof Date) out.push(`${indent}<date>${value.toISOString().replace(/\.\d{3}Z$/, 'Z')}</date>`);
  else if (typeof value === 'string') out.push(`${indent}<string>${escapeXml(value)}</string>`);
  else if (typeof value === 'boolean') out.push(`${indent}<${value}/>`);
  else if (typeof value === 'number') out.push(Number.isInteger(value) ? `${indent}<integer>${value}</integer>` : `${indent}<real>${value}</real>`);
  else if (Array.isArray(value)) {
    out.push(`${indent}<array>`);
    for (const item of value) write(item, next, out);
    out.push(`${indent}</array>`);
  } else {
    out.push(`${indent}<dict>`);
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      out.push(`${next}<key>${escapeXml(key)}</key>`);
      write(item, next, out);
    }
    out.push(`${indent}</dict>`);
  }
}

/** The XML plist document for `value`. */
export function toPlist(value: PlistValue): string {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
  ];
  write(value, '', out);
  out.push('</plist>', '');
  return out.join('\n');
}

export class PlistError extends Error {}

const unescapeXml = (text: string) =>
  text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    if (e === 'lt') return '<';
    if (e === 'gt') return '>';
    if (e === 'amp') return '&';
    if (e === 'quot') return '"';
    if (e === 'apos') return "'";
    return String.fromCodePoint(e.startsWith('#x') ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });

/** Reads an XML plist; throws PlistError on anything it does not understand. Dates come back as Date, data as PlistData. */
export function parsePlist(xml: string): PlistValue {
  // Tokens: tags (with their name and whether they close themselves) and the text between them.
  const tokens = [...xml.replace(/<\?xml[^>]*\?>|<!DOCTYPE[^>]*>|<!--[\s\S]*?-->/g, '').matchAll(/<(\/?)([A-Za-z]+)[^>]*?(\/?)>|([^<]+)/g)];
  let i = 0;
  const skipSpace = () => {
    while (i < tokens.length && tokens[i]![4] !== undefined && tokens[i]![4]!.trim() === '') i++;
  };
  const expectClose = (name: string) => {
    skipSpace();
    const t = tokens[i++];
    if (!t || t[1] !== '/' || t[2] !== name) throw new PlistError(`expected </${name}>`);
  };
  const textUntilClose = (name: string): string => {
    let text = '';
    while (i < tokens.length && tokens[i]![4] !== undefined) text += tokens[i++]![4];
    const t = tokens[i++];
    if (!t || t[1] !== '/' || t[2] !== name) throw new PlistError(`expected </${name}>`);
    return unescapeXml(text);
  };

  function value(): PlistValue {
    skipSpace();
    const t = tokens[i++];
    if (!t || t[2] === undefined || t[1] === '/') throw new PlistError('expected a value');
    const [, , name, selfClosing] = t;
    if (name === 'true' || name === 'false') {
      if (!selfClosing) expectClose(name);
      return name === 'true';
    }
    if (selfClosing) {
      if (name === 'dict') return {};
      if (name === 'array') return [];
      if (name === 'string') return '';
      if (name === 'data') return new PlistData(Buffer.alloc(0));
      throw new PlistError(`empty <${name}/>`);
    }
    switch (name) {
      case 'string':
        return textUntilClose('string');
      case 'integer': {
        const n = Number(textUntilClose('integer').trim());
        if (!Number.isFinite(n)) throw new PlistError('bad integer');
        return n;
      }
      case 'real': {
        const n = Number(textUntilClose('real').trim());
        if (Number.isNaN(n)) throw new PlistError('bad real');
        return n;
      }
      case 'date': {
        const d = new Date(textUntilClose('date').trim());
        if (Number.isNaN(d.getTime())) throw new PlistError('bad date');
        return d;
      }
      case 'data':
        return new PlistData(Buffer.from(textUntilClose('data').replace(/\s+/g, ''), 'base64'));
      case 'array': {
        const items: PlistValue[] = [];
        for (;;) {
          skipSpace();
          const t2 = tokens[i];
          if (t2 && t2[1] === '/' && t2[2] === 'array') {
            i++;
            return items;
          }
          items.push(value());
        }
      }
      case 'dict': {
        const dict: Record<string, PlistValue> = {};
        for (;;) {
          skipSpace();
          const t2 = tokens[i++];
          if (!t2) throw new PlistError('unterminated <dict>');
          if (t2[1] === '/' && t2[2] === 'dict') return dict;
          if (t2[2] !== 'key') throw new PlistError('expected <key>');
          const key = textUntilClose('key');
          dict[key] = value();
        }
      }
      default:
        throw new PlistError(`unknown element <${name}>`);
    }
  }

  skipSpace();
  const open = tokens[i++];
  if (!open || open[2] !== 'plist' || open[1] === '/') throw new PlistError('not a plist');
  const result = value();
  expectClose('plist');
  return result;
}

/** A dict from a parsed plist, or null when it is something else. */
export function asDict(value: PlistValue | undefined): Record<string, PlistValue> | null {
  return value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof PlistData) && !(value instanceof PlistReal) ? (value as Record<string, PlistValue>) : null;
}
