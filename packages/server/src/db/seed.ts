/** Demo retailers for a fresh development database. Safe to run again: it adds only what is missing. */
import type { Database } from './database.ts';
import { createUsersRepository } from '../modules/users/users.repository.ts';

export const DEMO_USERS = [
  { org_id: 23, user_type: 'retailer', first_name: 'Ravi', last_name: 'Kumar', mobile: '+919876543210', shop_name: 'Ravi Mobiles', city: 'Jaipur', email: 'ravi@example.com', birthday: '1988-04-14' },
  { org_id: 23, user_type: 'miniretailer', first_name: 'Sunita', last_name: 'Sharma', mobile: '+919876543211', shop_name: 'Sunita Telecom', city: 'Ajmer', email: null, birthday: '1992-09-30' },
  { org_id: 23, user_type: 'retailer', first_name: 'Arjun', last_name: 'Patel', mobile: '+919876543212', shop_name: 'Patel Phone Point', city: 'Surat', email: null, birthday: null },
  { org_id: 46, user_type: 'retailer', first_name: 'Meena', last_name: 'Iyer', mobile: '+919812345678', shop_name: 'Meena Electronics', city: 'Chennai', email: null, birthday: null },
] as const;

export async function seedDemo(db: Database): Promise<number> {
  const users = createUsersRepository(db);
  let added = 0;
  await db.transaction(async (tx) => {
    const ravi = (await users.findByMobile(DEMO_USERS[0].mobile, tx)) ?? (added++, await users.insert({ ...DEMO_USERS[0] }, tx));
    for (const demo of DEMO_USERS.slice(1)) {
      if (await users.findByMobile(demo.mobile, tx)) continue;
      const underRavi = demo.user_type === 'miniretailer';
      await users.insert({ ...demo, parent_id: underRavi ? ravi.id : null, account_id: underRavi ? ravi.account_id : null }, tx);
      added++;
    }
  });
  return added;
}
