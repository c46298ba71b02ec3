/** An email address as the forms check it before sending: something@domain.tld, no spaces (the server checks its format too). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(text: string): boolean {
  return EMAIL.test(text.trim());
}
