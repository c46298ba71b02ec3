import { describe, expect, it, vi } from 'vitest';
import type { WarrantyCertificate } from '@kisht/contract/warranty';
import { certificateFileName, IMAGE_WIDTH, layoutCertificate, shareImage, wrapText, type DrawOp, type Measure } from './certificate-image.ts';

/** Every character 10 px wide, whatever the font. */
const measure: Measure = (text) => Array.from(text).length * 10;
const style = { fontFamily: 'sans-serif', primary: '#0b5cad' };
const headings = { covers: 'What is covered', deductibles: 'Deductible', notes: 'Please note', terms: 'Plan terms' };

const cert = {
  lng: 'en', title: 'Extended warranty certificate', certificate_no: 'KW-2026-ABCD-EFGH',
  lines: [
    { key: 'customer', label: 'Customer', value: 'Venkatasubramaniyanchakravarthy Ramachandran Ayyangar-Pillai' },
    { key: 'imei', label: 'IMEI', value: '356938035643809' },
  ],
  covers: ['Accidental damage, such as a broken screen'], deductibles: ['Phone 0 to 6 months old: deductible 0% of the claim'],
  notes: ['This cover is insurance.'], terms: null,
} as unknown as WarrantyCertificate;

const texts = (ops: DrawOp[]) => ops.filter((op): op is Extract<DrawOp, { kind: 'text' }> => op.kind === 'text');

describe('wrapping text', () => {
  it('breaks between words, and inside a word only when it alone is too wide', () => {
    expect(wrapText('one two three four', 90, '', measure)).toEqual(['one two', 'three', 'four']);
    expect(wrapText('abcdefghijkl', 50, '', measure)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrapText('', 50, '', measure)).toEqual(['']);
  });

  it('keeps a Tamil letter with its vowel sign together', () => {
    const lines = wrapText('தமிழ்நாடு', 20, '', measure);
    expect(lines.join('')).toBe('தமிழ்நாடு');
    for (const line of lines) expect(line.normalize()).not.toMatch(/^[\u0BBE-\u0BCD]/);
  });
});

describe('the certificate image', () => {
  it('keeps every text inside the image and below the one before it', () => {
    const layout = layoutCertificate(cert, headings, measure, style);
    for (const op of texts(layout.ops)) {
      expect(op.x + measure(op.text, op.font), op.text).toBeLessThanOrEqual(IMAGE_WIDTH - 64);
      expect(op.y).toBeLessThan(layout.height);
    }
    // The long name wraps in its column, word by word, nothing lost.
    const start = texts(layout.ops).findIndex((op) => op.text.startsWith('Venkata'));
    const name = texts(layout.ops).slice(start).filter((op) => op.x === texts(layout.ops)[start]!.x).slice(0, 2);
    expect(name.map((op) => op.text).join(' ')).toBe(cert.lines[0]!.value);
    expect(name[1]!.y).toBeGreaterThan(name[0]!.y);
    expect(texts(layout.ops).map((op) => op.text)).toEqual(expect.arrayContaining(['KW-2026-ABCD-EFGH', 'What is covered', 'Deductible', 'Please note']));
  });

  it('leaves out the terms heading when the plan has no terms, and shows them when it has', () => {
    expect(texts(layoutCertificate(cert, headings, measure, style).ops).some((op) => op.text === 'Plan terms')).toBe(false);
    const withTerms = layoutCertificate({ ...cert, terms: 'Repairs at the shop.' }, headings, measure, style);
    expect(texts(withTerms.ops).some((op) => op.text === 'Plan terms')).toBe(true);
  });

  it('is named after its certificate number', () => {
    expect(certificateFileName('KW-2026-ABCD-EFGH')).toBe('warranty-KW-2026-ABCD-EFGH.png');
  });
});

describe('sharing the image', () => {
  const file = { name: 'x.png' } as File;
  const text = { title: 'Certificate', text: 'KW-2026-ABCD-EFGH' };

  it('uses the share sheet when it takes files', async () => {
    const share = vi.fn(async () => undefined);
    expect(await shareImage(file, text, { share, canShare: () => true })).toBe('shared');
    expect(share).toHaveBeenCalledWith({ files: [file], title: 'Certificate', text: 'KW-2026-ABCD-EFGH' });
  });

  it('falls back when there is no share sheet, it takes no files, or it fails; a closed sheet is not a failure', async () => {
    expect(await shareImage(file, text, {})).toBe('unsupported');
    expect(await shareImage(file, text, { share: async () => undefined, canShare: () => false })).toBe('unsupported');
    expect(await shareImage(file, text, { share: async () => Promise.reject(new Error('NotAllowedError')), canShare: () => true })).toBe('unsupported');
    const abort = Object.assign(new Error('closed'), { name: 'AbortError' });
    expect(await shareImage(file, text, { share: async () => Promise.reject(abort), canShare: () => true })).toBe('cancelled');
  });
});
