import { describe, expect, it } from 'vitest';
import { BULK_MAX_ROWS, parseCsv, readBulkFile } from './bulk-csv.ts';

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF or LF, and drops a BOM and blank lines', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, y","say ""hi"""\n\n"two\nlines",z')).toEqual([['a', 'b'], ['x, y', 'say "hi"'], ['two\nlines', 'z']]);
  });
});

describe('readBulkFile', () => {
  it('turns each row into an add-member body, columns in any order, +91 and spaces dropped from the mobile', () => {
    const file = readBulkFile('mobile,last_name,first_name,shop_name,user_type,city\n+91 98765 43000,Iyer,Lakshmi,"Sri Murugan Mobiles, Madurai",Mini Retailer,Madurai\n9876543001,Rao,Kiran,,,');
    expect(file.problem).toBeNull();
    expect(file.rows).toEqual([
      { line: 2, problem: null, body: { user_type: 'miniretailer', first_name: 'Lakshmi', last_name: 'Iyer', mobile: '9876543000', shop_name: 'Sri Murugan Mobiles, Madurai', city: 'Madurai' } },
      { line: 3, problem: null, body: { user_type: 'retailer', first_name: 'Kiran', last_name: 'Rao', mobile: '9876543001' } },
    ]);
  });

  it('marks each bad row with its reason and its line, and keeps the good ones', () => {
    const file = readBulkFile('first_name,last_name,mobile,email,user_type\nA,B,12345,,\n,B,9876543002,,\nA,B,9876543003,not-an-email,\nA,B,9876543004,,distributor\nA,B,9876543005,a@b.in,retailer');
    expect(file.rows.map((r) => [r.line, r.problem])).toEqual([
      [2, 'addCustomer.errors.mobile'], [3, 'network.bulk.nameMissing'], [4, 'addCustomer.errors.email'], [5, 'network.bulk.typeUnknown'], [6, null],
    ]);
  });

  it('refuses a file without the needed headings, an empty one, or one too long', () => {
    expect(readBulkFile('name,phone\nA,9876543000').problem).toBe('network.bulk.noHeading');
    expect(readBulkFile('first_name,last_name,mobile\n').problem).toBe('network.bulk.empty');
    expect(readBulkFile('').problem).toBe('network.bulk.empty');
    const many = ['first_name,last_name,mobile', ...Array.from({ length: BULK_MAX_ROWS + 1 }, () => 'A,B,9876543000')].join('\n');
    expect(readBulkFile(many).problem).toBe('network.bulk.tooMany');
  });
});
