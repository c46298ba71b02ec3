import { describe, expect, it } from 'vitest';
import { isValidVpa, parseUpiLink } from './upi.ts';

describe('isValidVpa', () => {
  it('takes name@provider addresses and refuses others', () => {
    for (const good of ['qureshi.mobile@okaxis', '9876543213@ybl', 'shop-7_a@paytm']) expect(isValidVpa(good), good).toBe(true);
    for (const bad of ['', 'noatsign', '@okaxis', 'a@b', 'two@@ok', 'space here@ok', 'x@ok.com', '.lead@ok']) expect(isValidVpa(bad), bad).toBe(false);
  });
});

describe('parseUpiLink', () => {
  it("reads the payee's address and name from a UPI QR's link, percent-encoded or not", () => {
    expect(parseUpiLink('upi://pay?pa=qureshi.mobile@okaxis&pn=Qureshi%20Mobile%20Care&cu=INR')).toEqual({ vpa: 'qureshi.mobile@okaxis', name: 'Qureshi Mobile Care' });
    expect(parseUpiLink('UPI://PAY?pn=Sri+Murugan&pa=murugan@ybl')).toEqual({ vpa: 'murugan@ybl', name: 'Sri Murugan' });
    expect(parseUpiLink('upi://pay?pa=9876543213@ybl')).toEqual({ vpa: '9876543213@ybl', name: null });
  });
  it('drops control and direction-changing characters from the name (they must not reach the database or a screen)', () => {
    expect(parseUpiLink('upi://pay?pa=shop@ybl&pn=Sharma%00%1B%E2%80%AEMobiles')).toEqual({ vpa: 'shop@ybl', name: 'SharmaMobiles' });
    expect(parseUpiLink('upi://pay?pa=shop@ybl&pn=%00%01')).toEqual({ vpa: 'shop@ybl', name: null });
  });

  it('refuses anything else a QR code may hold', () => {
    for (const other of ['https://example.com/pay?pa=a@ok', 'upi://mandate?pa=ab@ok', 'upi://pay?pn=No%20Address', 'upi://pay?pa=not-an-address', 'WIFI:S:shop;T:WPA;P:secret;;', '']) {
      expect(parseUpiLink(other), other).toBeNull();
    }
  });
});
