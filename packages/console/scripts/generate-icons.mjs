// Draws the app icons (public/icons) from the same shapes as icon.svg: a blue tile with a white "K".
// Run once with `node scripts/generate-icons.mjs`; the PNGs are committed.
import { writeFileSync, mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const OUT = new URL('../public/icons/', import.meta.url);
const BLUE = [0x0b, 0x5c, 0xad];
const WHITE = [0xff, 0xff, 0xff];
const AMBER = [0xf5, 0x9e, 0x0b];

// Shapes in a 100 x 100 box.
const K = [
  [[30, 24], [42, 24], [42, 76], [30, 76]],
  [[42, 50], [63, 24], [78, 24], [51, 57]],
  [[46, 51], [54, 44], [79, 76], [64, 76]],
];

function inPolygon(x, y, poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function inRoundedRect(x, y, inset, radius) {
  const min = inset;
  const max = 100 - inset;
  if (x < min || x > max || y < min || y > max) return false;
  const cx = Math.min(Math.max(x, min + radius), max - radius);
  const cy = Math.min(Math.max(y, min + radius), max - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** Colour at a point of the 100-unit box, or null for transparent. */
function shade(x, y, maskable) {
  const tile = maskable ? x >= 0 && x <= 100 && y >= 0 && y <= 100 : inRoundedRect(x, y, 0, 22);
  if (!tile) return null;
  // Maskable icons keep their content inside the central 80 % safe zone.
  const s = maskable ? 0.72 : 1;
  const ux = 50 + (x - 50) / s;
  const uy = 50 + (y - 50) / s;
  if (K.some((poly) => inPolygon(ux, uy, poly))) return WHITE;
  if (uy > 82 && uy < 86 && ux > 30 && ux < 79) return AMBER;
  return BLUE;
}

function crc32(bytes) {
  let c;
  let crc = 0xffffffff;
  for (const b of bytes) {
    c = (crc ^ b) & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(size, maskable) {
  const SS = 4; // supersampling for smooth edges
  const rows = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const x = ((px + (sx + 0.5) / SS) / size) * 100;
          const y = ((py + (sy + 0.5) / SS) / size) * 100;
          const c = shade(x, y, maskable);
          if (c) { r += c[0]; g += c[1]; b += c[2]; a += 1; }
        }
      }
      const o = 1 + px * 4;
      if (a) { row[o] = r / a; row[o + 1] = g / a; row[o + 2] = b / a; }
      row[o + 3] = Math.round((a / (SS * SS)) * 255);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const poly = (points) => `<polygon points="${points.map((p) => p.join(',')).join(' ')}"/>`;
const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" rx="22" fill="#0b5cad"/><g fill="#fff">${K.map(poly).join('')}</g><rect x="30" y="82" width="49" height="4" rx="2" fill="#f59e0b"/></svg>\n`;

mkdirSync(OUT, { recursive: true });
writeFileSync(new URL('icon.svg', OUT), svg);
writeFileSync(new URL('favicon.svg', OUT), svg);
writeFileSync(new URL('icon-192.png', OUT), png(192, false));
writeFileSync(new URL('icon-512.png', OUT), png(512, false));
writeFileSync(new URL('icon-maskable-512.png', OUT), png(512, true));
console.log('icons written to', OUT.pathname);
