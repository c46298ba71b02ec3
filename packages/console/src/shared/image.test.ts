import { describe, expect, it } from 'vitest';
import { fitWithin, isWithinUploadLimit, outputTypeFor, shrunkFileName } from './image.ts';

describe('fitWithin', () => {
  it('shrinks the long side to 1200 and keeps the proportions', () => {
    expect(fitWithin({ width: 4000, height: 3000 })).toEqual({ width: 1200, height: 900 });
    expect(fitWithin({ width: 3000, height: 4000 })).toEqual({ width: 900, height: 1200 });
    expect(fitWithin({ width: 2400, height: 2400 })).toEqual({ width: 1200, height: 1200 });
  });

  it('rounds to whole pixels and never goes below one', () => {
    expect(fitWithin({ width: 4032, height: 1813 })).toEqual({ width: 1200, height: 540 });
    expect(fitWithin({ width: 100_000, height: 10 })).toEqual({ width: 1200, height: 1 });
  });

  it('leaves images that already fit alone (no enlarging)', () => {
    expect(fitWithin({ width: 800, height: 600 })).toEqual({ width: 800, height: 600 });
    expect(fitWithin({ width: 1200, height: 1 })).toEqual({ width: 1200, height: 1 });
  });

  it('takes another limit and refuses empty sizes', () => {
    expect(fitWithin({ width: 1000, height: 500 }, 100)).toEqual({ width: 100, height: 50 });
    expect(() => fitWithin({ width: 0, height: 10 })).toThrow(RangeError);
  });
});

describe('outputTypeFor', () => {
  it('keeps JPEG as JPEG and PNG as PNG, and refuses other types', () => {
    expect(outputTypeFor('image/jpeg')).toBe('image/jpeg');
    expect(outputTypeFor('image/JPG')).toBe('image/jpeg');
    expect(outputTypeFor('image/png')).toBe('image/png');
    expect(outputTypeFor('image/heic')).toBeNull();
    expect(outputTypeFor('application/pdf')).toBeNull();
    expect(outputTypeFor('')).toBeNull();
  });
});

describe('upload helpers', () => {
  it('checks the 5 MB limit', () => {
    expect(isWithinUploadLimit(5 * 1024 * 1024)).toBe(true);
    expect(isWithinUploadLimit(5 * 1024 * 1024 + 1)).toBe(false);
  });

  it('names the shrunk file after the original', () => {
    expect(shrunkFileName('IMG_001.HEIC.jpeg', 'image/jpeg')).toBe('IMG_001.HEIC.jpg');
    expect(shrunkFileName('scan.png', 'image/png')).toBe('scan.png');
    expect(shrunkFileName('', 'image/png')).toBe('image.png');
  });
});
