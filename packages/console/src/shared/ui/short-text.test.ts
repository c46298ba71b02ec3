import { describe, expect, it } from 'vitest';
import { shortText, SHORT_TEXT_LIMIT } from './short-text.tsx';

describe('shortText (the 10-character rule for names in lists and chips)', () => {
  it('keeps text of up to 10 letters as it is', () => {
    expect(shortText('Asha Devi')).toBe('Asha Devi');
    expect(shortText('0123456789')).toBe('0123456789');
  });

  it('cuts longer text after 10 letters with an ellipsis', () => {
    expect(SHORT_TEXT_LIMIT).toBe(10);
    expect(shortText('Venkatasubramaniyan Iyer')).toBe('Venkatasub...');
  });

  it('counts a Tamil or Devanagari letter with its vowel sign as one, never splitting it', () => {
    // கு is two code points (க + ு) but one letter.
    const tamil = 'குகுகுகுகுகுகுகுகுகுகு'; // 11 letters, 22 code points
    const cut = shortText(tamil);
    expect(cut).toBe(`${'கு'.repeat(10)}...`);
    const hindi = 'किकिकिकिकिकिकिकिकिकि'; // 10 letters: unchanged
    expect(shortText(hindi)).toBe(hindi);
  });

  it('does not leave a space before the ellipsis', () => {
    expect(shortText('Ravi Kumar Sharma')).toBe('Ravi Kumar...');
    expect(shortText('Ravi Kuma Sharma')).toBe('Ravi Kuma...');
  });
});
