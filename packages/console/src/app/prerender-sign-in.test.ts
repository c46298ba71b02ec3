import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ORG_NAME_SLOT, renderSignIn } from './prerender-sign-in.tsx';

const dictionary = (lng: string) => JSON.parse(readFileSync(new URL(`../../../locales/${lng}.json`, import.meta.url), 'utf8')) as Record<string, Record<string, Record<string, string>>>;
const en = dictionary('en');

describe('the sign-in screen drawn at build time', () => {
  it("is the app's own screen in the page's language: heading, +91 number field, Send OTP, the legal links", () => {
    const ta = dictionary('tm');
    const html = renderSignIn('tm', ta, en);
    expect(html).toContain(`<h1>${ta.auth!.login!.title}</h1>`);
    expect(html).toContain(ta.auth!.login!.sendOtp);
    expect(html).toContain(ta.auth!.login!.mobileLabel);
    expect(html).toMatch(/<input(?=[^>]*name="mobile")(?=[^>]*type="tel")[^>]*>/);
    expect(html).toContain('+91');
    expect(html).toContain('href="/privacy-policy"');
    expect(html).not.toContain(en.auth!.login!.sendOtp);
    // The organisation's name is left for the server to fill in.
    expect(html).toContain(`<p class="auth-brand__name">${ORG_NAME_SLOT}</p>`);
  });

  it('cannot be typed into before the app takes over, and says which language it was drawn in', () => {
    const html = renderSignIn('en', en, en);
    expect(html).toMatch(/<div class="app-column" data-prerendered="en" inert="">/);
  });

  it('falls back to English words where the language has none, as the app does', () => {
    const partial = { auth: { login: { title: 'शीर्षक' } } };
    const html = renderSignIn('hn', partial, en);
    expect(html).toContain('<h1>शीर्षक</h1>');
    expect(html).toContain(en.auth!.login!.sendOtp);
  });
});
