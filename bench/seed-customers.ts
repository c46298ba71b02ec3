/**
 * Bulk seed for the customer benchmarks: N customers with 6-instalment schedules, some paid, under one
 * retailer account, generated inside the database in batches with a progress bar.
 *   DATABASE_URL=postgres://... node --import tsx bench/seed-customers.ts 1000000
 */
import type { Database } from '../packages/server/src/db/database.ts';

function progress(done: number, total: number, started: number) {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const rate = done / ((performance.now() - started) / 1000);
  process.stdout.write(`\r  [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done.toLocaleString('en-IN')}/${total.toLocaleString('en-IN')} customers, ${Math.round(rate).toLocaleString('en-IN')}/s   `);
}

export async function seedCustomers(db: Database, accountId: number, productId: number, total: number, batch = 20_000): Promise<void> {
  const started = performance.now();
  const offset = (await db.query<{ n: number }>('SELECT coalesce(max(id), 0)::int AS n FROM customers')).rows[0]!.n;
  for (let from = 0; from < total; from += batch) {
    const to = Math.min(total, from + batch);
    await db.transaction(async (tx) => {
      // Statuses spread like a live book: mostly installed, some inactive, completed, locked.
      await tx.query(
        `INSERT INTO customers (org_id, account_id, retailer_id, first_name, last_name, mobile, device_brand, device_model, imei1,
           provisioning_type, product_id, price_paise, down_payment_paise, annual_rate_bps, interest_method, tenure_months, start_date,
           first_due_date, emi_paise, install_status, lock_status, created_at)
         SELECT 23, $1, $1,
                (ARRAY['Asha','Ravi','Sunil','Meena','Kiran','Zoya','Arjun','Pooja','Vikram','Neha'])[1 + g % 10] || g,
                (ARRAY['Sharma','Verma','Patel','Iyer','Khan','Das','Reddy','Singh','Nair','Gupta'])[1 + (g / 10) % 10],
                '+91' || (7000000000 + g)::text, 'Samsung', 'Galaxy A15', lpad((350000000000000 + g)::text, 15, '0'),
                0, $2, 1500000, 300000, 1800, 'reducing', 6, current_date - (g % 180), current_date - (g % 180) + 30,
                206000, (ARRAY[1,1,1,1,1,1,0,0,5,6])[1 + g % 10], CASE WHEN g % 17 = 0 THEN 1 ELSE 0 END,
                now() - make_interval(mins => (g % 259200))
           FROM generate_series($3::int, $4::int) AS g`,
        [accountId, productId, offset + from + 1, offset + to],
      );
      await tx.query(
        `INSERT INTO customer_imeis (imei, customer_id, active)
         SELECT imei1, id, install_status NOT IN (3, 5) FROM customers WHERE id > $1 AND id <= $2`,
        [offset + from, offset + to],
      );
      await tx.query(
        `INSERT INTO emi_instalments (customer_id, account_id, number, due_date, principal_paise, interest_paise, amount_paise, paid_paise)
         SELECT c.id, c.account_id, n, (c.first_due_date + make_interval(months => n - 1))::date, 190000, 16000, 206000,
                CASE WHEN c.install_status = 5 OR (c.first_due_date + make_interval(months => n - 1))::date < current_date - (c.id % 3) * 31 THEN 206000 ELSE 0 END
           FROM customers c CROSS JOIN generate_series(1, 6) AS n
          WHERE c.id > $1 AND c.id <= $2`,
        [offset + from, offset + to],
      );
    });
    progress(to, total, started);
  }
  process.stdout.write('\n');
  await db.query('ANALYZE');
}
