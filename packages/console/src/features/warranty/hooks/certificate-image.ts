/**
 * The warranty certificate as an image the customer can be sent: laid out on a 1080 px wide canvas in the
 * certificate's language (the server words it; the section headings come from the same dictionary), drawn to a PNG,
 * then handed to the phone's share sheet with the file when it can take one (Web Share API, level 2), else offered
 * for download. The layout is plain arithmetic over a text measurer, so it is tested without a canvas.
 */
import type { WarrantyCertificate } from '@kisht/contract/warranty';

export const IMAGE_WIDTH = 1080;
const PAD = 64;
const LABEL_WIDTH = 330;
const GAP = 24;

/** The width of a text in a font, as the canvas measures it. */
export type Measure = (text: string, font: string) => number;

export type DrawOp =
  | { kind: 'rect'; x: number; y: number; w: number; h: number; color: string }
  | { kind: 'text'; text: string; x: number; y: number; font: string; color: string };

export interface Layout {
  ops: DrawOp[];
  height: number;
}

export interface CertificateHeadings {
  covers: string;
  deductibles: string;
  notes: string;
  terms: string;
}

export interface ImageStyle {
  fontFamily: string;
  primary: string;
}

/** The characters a line may be broken between: whole graphemes (a Tamil or Devanagari cluster stays together). */
function graphemes(text: string): string[] {
  const Segmenter = (Intl as { Segmenter?: new (lng?: string, o?: { granularity: 'grapheme' }) => { segment(t: string): Iterable<{ segment: string }> } }).Segmenter;
  if (Segmenter) return Array.from(new Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (s) => s.segment);
  return Array.from(text);
}

/**
 * Breaks a text into lines no wider than `width`: between words, and inside a word only when the word alone is
 * too wide (a long name, an IMEI in a narrow column).
 */
export function wrapText(text: string, width: number, font: string, measure: Measure): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (measure(candidate, font) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      if (measure(word, font) <= width) {
        line = word;
        continue;
      }
      for (const piece of graphemes(word)) {
        if (line && measure(line + piece, font) > width) {
          lines.push(line);
          line = '';
        }
        line += piece;
      }
    }
    if (line) lines.push(line);
  }
  return lines.length > 0 ? lines : [''];
}

const lineHeight = (size: number) => Math.round(size * 1.45);

/** Where every rectangle and line of text goes, and how tall the image is. */
export function layoutCertificate(cert: WarrantyCertificate, headings: CertificateHeadings, measure: Measure, style: ImageStyle): Layout {
  const ops: DrawOp[] = [];
  const font = (size: number, weight = 400) => `${weight} ${size}px ${style.fontFamily}`;
  const inner = IMAGE_WIDTH - PAD * 2;
  const ink = '#17202a';
  const muted = '#5b6673';
  let y = PAD;

  // The band: the title and the certificate number, white on the organisation's colour.
  const bandTop = y;
  const titleFont = font(46, 700);
  const numberFont = font(40, 700);
  const title = wrapText(cert.title, inner - 48, titleFont, measure);
  const bandHeight = 40 + title.length * lineHeight(46) + 12 + lineHeight(40) + 36;
  ops.push({ kind: 'rect', x: PAD, y: bandTop, w: inner, h: bandHeight, color: style.primary });
  y = bandTop + 40;
  for (const text of title) {
    ops.push({ kind: 'text', text, x: PAD + 24, y, font: titleFont, color: '#ffffff' });
    y += lineHeight(46);
  }
  y += 12;
  ops.push({ kind: 'text', text: cert.certificate_no, x: PAD + 24, y, font: numberFont, color: '#ffffff' });
  y = bandTop + bandHeight + 28;

  // The lines: label on the left, value on the right, a rule under each.
  const labelFont = font(28);
  const valueFont = font(31, 600);
  const valueX = PAD + LABEL_WIDTH + GAP;
  const valueWidth = IMAGE_WIDTH - PAD - valueX;
  for (const line of cert.lines) {
    const labels = wrapText(line.label, LABEL_WIDTH, labelFont, measure);
    const values = wrapText(line.value, valueWidth, valueFont, measure);
    const top = y + 14;
    labels.forEach((text, i) => ops.push({ kind: 'text', text, x: PAD, y: top + i * lineHeight(31), font: labelFont, color: muted }));
    values.forEach((text, i) => ops.push({ kind: 'text', text, x: valueX, y: top + i * lineHeight(31), font: valueFont, color: ink }));
    y = top + Math.max(labels.length, values.length) * lineHeight(31) + 10;
    ops.push({ kind: 'rect', x: PAD, y, w: inner, h: 2, color: '#e3e7ec' });
  }
  y += 24;

  // The sections: a heading, then one bullet per sentence.
  const headingFont = font(34, 700);
  const bodyFont = font(29);
  const section = (heading: string, items: readonly string[], bullets: boolean) => {
    if (items.length === 0) return;
    y += 20;
    for (const text of wrapText(heading, inner, headingFont, measure)) {
      ops.push({ kind: 'text', text, x: PAD, y, font: headingFont, color: ink });
      y += lineHeight(34);
    }
    y += 6;
    const indent = bullets ? 34 : 0;
    for (const item of items) {
      if (bullets) ops.push({ kind: 'text', text: '•', x: PAD + 6, y, font: bodyFont, color: style.primary });
      for (const text of wrapText(item, inner - indent, bodyFont, measure)) {
        ops.push({ kind: 'text', text, x: PAD + indent, y, font: bodyFont, color: ink });
        y += lineHeight(29);
      }
      y += 8;
    }
  };
  section(headings.covers, cert.covers, true);
  section(headings.deductibles, cert.deductibles, true);
  section(headings.notes, cert.notes, true);
  section(headings.terms, cert.terms ? [cert.terms] : [], false);

  return { ops, height: Math.ceil(y + PAD) };
}

/** Draws the certificate and encodes it as a PNG. */
export async function certificatePng(cert: WarrantyCertificate, headings: CertificateHeadings): Promise<Blob> {
  // The page's fonts (and the script's fallback fonts) must be ready before anything is measured.
  await document.fonts?.ready;
  const root = getComputedStyle(document.documentElement);
  const style: ImageStyle = {
    fontFamily: getComputedStyle(document.body).fontFamily || 'sans-serif',
    primary: root.getPropertyValue('--color-primary').trim() || '#0b5cad',
  };
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  const measure: Measure = (text, font) => {
    context.font = font;
    return context.measureText(text).width;
  };
  const layout = layoutCertificate(cert, headings, measure, style);
  canvas.width = IMAGE_WIDTH;
  canvas.height = layout.height;
  // Setting the size clears the canvas and its settings.
  const g = canvas.getContext('2d')!;
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.textBaseline = 'top';
  for (const op of layout.ops) {
    g.fillStyle = op.color;
    if (op.kind === 'rect') g.fillRect(op.x, op.y, op.w, op.h);
    else {
      g.font = op.font;
      g.fillText(op.text, op.x, op.y);
    }
  }
  return new Promise<Blob>((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the image could not be encoded'))), 'image/png'));
}

/** The image's file name: the certificate number, safe in any file system. */
export const certificateFileName = (certificateNo: string) => `warranty-${certificateNo.replace(/[^A-Za-z0-9-]+/g, '')}.png`;

export type ShareOutcome = 'shared' | 'cancelled' | 'unsupported';

/** What the share sheet needs from the browser (the shell's WebView may have none of it). */
export type ShareTarget = { share?: (data: ShareData) => Promise<void>; canShare?: (data: ShareData) => boolean };

/**
 * Hands the image to the phone's share sheet when it takes files. 'cancelled': the user closed the sheet;
 * 'unsupported': no sharing of files here (or it failed), so the caller offers the download instead.
 */
export async function shareImage(file: File, text: { title: string; text: string }, target: ShareTarget): Promise<ShareOutcome> {
  const data: ShareData = { files: [file], title: text.title, text: text.text };
  if (typeof target.share !== 'function' || typeof target.canShare !== 'function') return 'unsupported';
  try {
    if (!target.canShare({ files: [file] })) return 'unsupported';
    await target.share(data);
    return 'shared';
  } catch (error) {
    return (error as { name?: unknown } | null)?.name === 'AbortError' ? 'cancelled' : 'unsupported';
  }
}
