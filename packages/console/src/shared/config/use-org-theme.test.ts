import { describe, expect, it } from 'vitest';
import { rememberedTheme } from './use-org-theme.ts';

describe('rememberedTheme', () => {
  it("gives back the organisation's colours stored at the last visit", () => {
    const theme = { primary: '#123456', onPrimary: '#ffffff', accent: '#abcdef', surface: '#f0f0f0' };
    expect(rememberedTheme(JSON.stringify(theme))).toEqual(theme);
  });
  it('ignores nothing stored, broken JSON, or colours that are not #rrggbb (no CSS injected from storage)', () => {
    for (const text of [null, '', '{', '"x"', JSON.stringify({ primary: 'red; background:url(x)', onPrimary: '#fff', accent: '#000000', surface: '#000000' })]) {
      expect(rememberedTheme(text)).toBeNull();
    }
  });
});
