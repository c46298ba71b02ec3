/**
 * Texts the server sends many times unchanged (translation dictionaries, the console's pages), compressed once
 * with Brotli and gzip off the event loop (zlib's thread pool) and kept, for callers that accept either.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export type Encoding = 'br' | 'gzip';

/** The best encoding the caller accepts: Brotli, then gzip, else none. */
export function encodingFor(accept: string | undefined): Encoding | null {
  const offered = (accept ?? '').toLowerCase().split(',').map((part) => part.trim().split(';'));
  const takes = (name: string) => offered.some(([coding, ...params]) => coding === name && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)));
  return takes('br') ? 'br' : takes('gzip') ? 'gzip' : null;
}

/**
 * A store of compressed texts by key, at most `limit` kept (the oldest dropped). A compression that fails is not
 * kept, so the next request tries again.
 */
export function compressedTexts(limit = Infinity) {
  const kept = new Map<string, Promise<Record<Encoding, Buffer>>>();
  return (key: string, text: string, encoding: Encoding): Promise<Buffer> => {
    let entry = kept.get(key);
    if (!entry) {
      if (kept.size >= limit) kept.delete(kept.keys().next().value!);
      entry = Promise.all([brotli(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), gzipped(text, { level: 9 })]).then(([br, gz]) => ({ br, gzip: gz }));
      kept.set(key, entry);
      entry.catch(() => kept.delete(key));
    }
    return entry.then((both) => both[encoding]);
  };
}
