/**
 * Adding many members from a CSV file (the bulk_retailer switch): the file's rows read into the add-member
 * body, each row checked before anything is sent. Columns by heading, in any order: first_name, last_name,
 * mobile (required), shop_name, email, city, user_type (retailer or miniretailer; retailer when empty).
 */
import type { AddMemberBody } from '@kisht/contract/network';
import { isValidLocalMobile } from '@kisht/domain/mobile';
import { isValidEmail } from '@kisht/domain/email';

/** The most rows one file may hold (each is one request). */
export const BULK_MAX_ROWS = 500;
export const BULK_COLUMNS = ['first_name', 'last_name', 'mobile', 'shop_name', 'email', 'city', 'user_type'] as const;

/** RFC 4180 fields: commas, quotes doubled inside quoted fields, CRLF or LF line ends; a BOM is dropped. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((cell) => cell.trim() !== ''));
}

/** One row of the file: the body to send, or why it cannot be sent (a translation key). */
export type BulkRow = { line: number; body: AddMemberBody; problem: null } | { line: number; body: null; problem: string };

export type BulkFile = { rows: BulkRow[]; problem: null } | { rows: []; problem: string };


export function readBulkFile(text: string): BulkFile {
  const [heading, ...lines] = parseCsv(text);
  if (!heading) return { rows: [], problem: 'network.bulk.empty' };
  const columns = heading.map((h) => h.trim().toLowerCase());
  if (!['first_name', 'last_name', 'mobile'].every((c) => columns.includes(c))) return { rows: [], problem: 'network.bulk.noHeading' };
  if (lines.length === 0) return { rows: [], problem: 'network.bulk.empty' };
  if (lines.length > BULK_MAX_ROWS) return { rows: [], problem: 'network.bulk.tooMany' };
  const rows = lines.map((cells, index): BulkRow => {
    const line = index + 2;
    const get = (name: string) => (cells[columns.indexOf(name)] ?? '').trim();
    const mobile = get('mobile').replace(/[\s-]/g, '').replace(/^\+?91(?=\d{10}$)/, '');
    const type = get('user_type').toLowerCase().replace(/[\s_-]/g, '') || 'retailer';
    const email = get('email');
    if (!get('first_name') || !get('last_name')) return { line, body: null, problem: 'network.bulk.nameMissing' };
    if (get('first_name').length > 60 || get('last_name').length > 60) return { line, body: null, problem: 'network.bulk.nameTooLong' };
    if (!isValidLocalMobile(mobile)) return { line, body: null, problem: 'addCustomer.errors.mobile' };
    if (email && !isValidEmail(email)) return { line, body: null, problem: 'addCustomer.errors.email' };
    if (type !== 'retailer' && type !== 'miniretailer') return { line, body: null, problem: 'network.bulk.typeUnknown' };
    const body: AddMemberBody = { user_type: type, first_name: get('first_name'), last_name: get('last_name'), mobile };
    if (get('shop_name')) body.shop_name = get('shop_name').slice(0, 80);
    if (email) body.email = email;
    if (get('city')) body.city = get('city').slice(0, 60);
    return { line, body, problem: null };
  });
  return { rows, problem: null };
}
