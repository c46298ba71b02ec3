import { describe, expect, it } from 'vitest';
import { isValidVpa, parseUpiLink, upiPayLink } from './upi.ts';

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

describe('upiPayLink', () => {
  it('writes the NPCI parameters percent-encoded as UPI apps read them: %20 for a space, never +', () => {
    const link = upiPayLink({ vpa: 'sharma.mobiles@okaxis', name: 'Sharma Mobiles & Repairs', amountPaise: 250_050, note: 'EMI Anita Devi', reference: 'po_AbC123' });
    expect(link).toBe('upi://pay?pa=sharma.mobiles@okaxis&pn=Sharma%20Mobiles%20%26%20Repairs&tr=po_AbC123&tn=EMI%20Anita%20Devi&am=2500.50&cu=INR');
    expect(link).not.toContain('+');
  });
  it('leaves out the amount when nothing is asked, and what was not given', () => {
    expect(upiPayLink({ vpa: '9876543213@ybl', name: 'Ravi', amountPaise: 0 })).toBe('upi://pay?pa=9876543213@ybl&pn=Ravi&cu=INR');
    expect(upiPayLink({ vpa: 'shop@ybl', name: 'Shop', amountPaise: 100 })).toBe('upi://pay?pa=shop@ybl&pn=Shop&am=1.00&cu=INR');
  });
  it('encodes names in any script, and reads back as it was written', () => {
    const link = upiPayLink({ vpa: 'murugan@ybl', name: 'ஸ்ரீ முருகன் மொபைல்ஸ்', note: 'EMI  +  Ravi\u0000\u202e' });
    expect(link).toMatch(/^upi:\/\/pay\?pa=murugan@ybl&pn=%E0%AE/);
    expect(link).toContain('&tn=EMI%20%2B%20Ravi&');
    expect(parseUpiLink(link)).toEqual({ vpa: 'murugan@ybl', name: 'ஸ்ரீ முருகன் மொபைல்ஸ்' });
  });
  it('cuts the note to 50 characters', () => {
    const link = upiPayLink({ vpa: 'shop@ybl', name: 'Shop', note: 'x'.repeat(80) });
    expect(new URLSearchParams(link.slice(link.indexOf('?') + 1)).get('tn')).toHaveLength(50);
  });
});
