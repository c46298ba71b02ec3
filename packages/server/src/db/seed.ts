/** Demo retailers for a fresh development database. Safe to run again: it adds only what is missing. */
import type { Database } from './database.ts';
import { STANDARD_PRODUCT, type LoanProductSettings } from '@kisht/domain/loan-product';
import { createUsersRepository } from '../modules/users/users.repository.ts';
import { createLicensesRepository } from '../modules/licenses/licenses.repository.ts';

export const DEMO_USERS = [
  { org_id: 23, user_type: 'retailer', first_name: 'Ravi', last_name: 'Kumar', mobile: '+919876543210', shop_name: 'Ravi Mobiles', city: 'Jaipur', email: 'ravi@example.com', birthday: '1988-04-14' },
  { org_id: 23, user_type: 'miniretailer', first_name: 'Sunita', last_name: 'Sharma', mobile: '+919876543211', shop_name: 'Sunita Telecom', city: 'Ajmer', email: null, birthday: '1992-09-30' },
  { org_id: 23, user_type: 'retailer', first_name: 'Arjun', last_name: 'Patel', mobile: '+919876543212', shop_name: 'Patel Phone Point', city: 'Surat', email: null, birthday: null },
  { org_id: 46, user_type: 'retailer', first_name: 'Meena', last_name: 'Iyer', mobile: '+919812345678', shop_name: 'Meena Electronics', city: 'Chennai', email: null, birthday: null },
  { org_id: 23, user_type: 'retailer', first_name: 'Farhan', last_name: 'Qureshi', mobile: '+919876543213', shop_name: 'Qureshi Mobile Care', city: 'Lucknow', email: null, birthday: null },
] as const;

/** Demo key balances by product type (0 DPC, 11 DPC lite, 2 Apple, 9 DPC with anti-theft, 4 anti-theft alone, 7 family care, 8/12/13 anti-hacking tiers, 5 extended warranty). */
export const DEMO_KEYS: Record<string, Array<[number, number]>> = {
  '+919876543210': [[0, 100], [11, 10], [2, 5], [9, 5], [4, 5], [7, 10], [8, 20], [12, 5], [13, 5], [5, 10]],
  '+919876543211': [[0, 5], [8, 3], [5, 3]],
  '+919876543212': [[0, 3]],
  '+919812345678': [[0, 10], [2, 2], [8, 5], [5, 5]],
  '+919876543213': [[0, 5]],
};

const DEMO_UPI: Record<string, string> = { '+919876543210': 'ravimobiles@okaxis', '+919812345678': 'meenaelectronics@oksbi' };

/** Loan products of the demo organisations (decision 027): one of each kind a phone shop sells on. */
export const DEMO_LOAN_PRODUCTS: Array<{ name: string; settings: LoanProductSettings }> = [
  { name: 'No-cost EMI (GST on interest)', settings: { ...STANDARD_PRODUCT, noCost: true, gstOnInterestBps: 1800, instalmentRounding: { multipleOfPaise: 1, mode: 'half_up' } } },
  {
    name: 'Bank EMI, interest by actual days',
    settings: { ...STANDARD_PRODUCT, periodRate: 'actual_days', instalmentRounding: { multipleOfPaise: 1, mode: 'half_even' }, interestRounding: 'half_even', foreclosureFeeBps: 200 },
  },
  { name: 'Weekly pay-as-you-go', settings: { ...STANDARD_PRODUCT, frequency: { unit: 'week', every: 1 } } },
  { name: '0% scheme', settings: { ...STANDARD_PRODUCT, interest: 'zero' } },
];

export async function seedDemo(db: Database): Promise<number> {
  const users = createUsersRepository(db);
  const licenses = createLicensesRepository(db);
  const added: Array<{ id: number; mobile: string }> = [];
  await db.transaction(async (tx) => {
    let ravi = await users.findByMobile(DEMO_USERS[0].mobile, tx);
    if (!ravi) {
      ravi = await users.insert({ ...DEMO_USERS[0] }, tx);
      added.push({ id: ravi.id, mobile: DEMO_USERS[0].mobile });
    }
    for (const demo of DEMO_USERS.slice(1)) {
      if (await users.findByMobile(demo.mobile, tx)) continue;
      const underRavi = demo.user_type === 'miniretailer';
      const user = await users.insert({ ...demo, parent_id: underRavi ? ravi.id : null, account_id: underRavi ? ravi.account_id : null }, tx);
      added.push({ id: user.id, mobile: demo.mobile });
    }
    // Keys only for the users added now, so a restart (or a demo user added later) tops nobody up.
    for (const user of added) {
      for (const [productType, count] of DEMO_KEYS[user.mobile] ?? []) await licenses.grant(user.id, productType, count, 'demo seed', tx);
      // A UPI address for the payment QR on locked phones.
      const vpa = DEMO_UPI[user.mobile];
      if (vpa) await tx.query('UPDATE users SET upi_id = $2 WHERE id = $1 AND upi_id IS NULL', [user.id, vpa]);
    }
    // The demo organisations' loan products, once: an organisation that has any (or retired them) is left as it is.
    await tx.query(
      `INSERT INTO loan_products (org_id, name, settings, sort_order)
       SELECT o.id, p.name, p.settings, p.sort_order
         FROM organizations o CROSS JOIN jsonb_to_recordset($1::jsonb) AS p(name text, settings jsonb, sort_order int)
        WHERE o.id IN (SELECT DISTINCT org_id FROM unnest($2::int[]) AS org_id) AND NOT EXISTS (SELECT 1 FROM loan_products l WHERE l.org_id = o.id)`,
      [JSON.stringify(DEMO_LOAN_PRODUCTS.map((p, i) => ({ ...p, sort_order: i + 1 }))), [...new Set(DEMO_USERS.map((u) => u.org_id))]],
    );
  });
  return added.length;
}
