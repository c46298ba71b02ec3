/**
 * The ledger that explains every rupee (issue 15): a part payment's receipt splits into interest and principal;
 * a penalty is charged and partly waived with a reason; the statement shows the waiver and ends on what the EMI
 * plan says is owed; the loan is closed early for today's quote, and a quote that moved before the confirm
 * (QUOTE_CHANGED) is read again and shown.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { RetailerApi, randomImei } from '@kisht/agent/retailer-api';
import { BASE_URL } from '../playwright.config.ts';
import { en, passMpin, signInWithOtp } from './fixtures.ts';

const RAVI = '9876543210';
const NAME = 'Ananya Krishnamurthy';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A text template of the dictionary as a pattern, each {{placeholder}} matching an amount in rupees. */
function rupeesPattern(key: string, names: string[]): string {
  const vars = Object.fromEntries(names.map((n) => [n, `__${n}__`]));
  const escaped = escapeRegExp(en(key, vars));
  return names.reduce((text, n) => text.replace(`__${n}__`, '-?₹[\\d,]+(?:\\.\\d{1,2})?'), escaped);
}

/** The figure right after a label in a facts list or a line (dt/dd, span/strong). */
async function figureAfter(scope: Locator | Page, label: string): Promise<string> {
  return (await scope.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]').innerText()).trim();
}

test('a part payment splits by part, a penalty is waived in part, the statement adds up, and the loan closes early', async ({ page, request }) => {
  test.setTimeout(180_000);
  const retailer = new RetailerApi(BASE_URL, 'loan-ledger journey');
  await retailer.signIn(`+91${RAVI}`);
  try {
    // Rs 15,000 with Rs 3,000 down, at 24% a year over 6 months on the bank product (interest by actual days, a
    // 2% foreclosure fee); the first instalment fell due a month ago.
    const products = await retailer.request<Array<{ id: number; product_type: number }>>('GET', '/api/products');
    const loanProducts = await retailer.request<Array<{ id: number; name: string }>>('GET', '/api/loan_products');
    const bank = loanProducts.find((p) => p.name.startsWith('Bank EMI'));
    expect(bank, 'the demo organisation has the bank EMI product').toBeDefined();
    const today = todayInIndia();
    const { customer } = await retailer.request<{ customer: { id: number } }>('POST', '/api/customer', {
      first_name: 'Ananya', last_name: 'Krishnamurthy', mobile: '+919812377031', device_brand: 'Samsung', device_model: 'Galaxy A35', imei1: randomImei(),
      provisioning_type: 0, product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 1_500_000, down_payment_paise: 300_000,
      annual_rate_bps: 2400, annual_rate: '24', interest_method: 'reducing', tenure_months: 6, loan_product_id: bank!.id,
      start_date: addDays(today, -60), first_due_date: addDays(today, -30),
    });

    // The console hears nothing from the server's event stream in this journey, so a quote changed from outside
    // stays on screen until the confirm is refused (QUOTE_CHANGED); every other screen refreshes after its own change.
    await page.route('**/api/events', (route) => route.abort());
    await signInWithOtp(page, request, RAVI);
    await passMpin(page);
    await page.goto(`/view-emi-details/${customer.id}`);
    await passMpin(page);
    await expect(page.getByRole('link', { name: NAME })).toBeVisible();

    // Pay Rs 1,000 of the first instalment: the receipt splits it into interest (first) and principal.
    await page.getByRole('button', { name: en('emi.payOneNamed', { number: '1' }) }).click();
    const pay = page.getByRole('dialog', { name: en('emi.pay.titleOne', { number: '1' }) });
    await pay.getByLabel(en('emi.pay.amount')).fill('1000');
    await pay.getByRole('button', { name: en('emi.pay.confirm') }).click();
    const receipt = page.getByRole('dialog', { name: en('receipt.title'), exact: true });
    await expect(receipt).toBeVisible();
    await expect(receipt.getByRole('cell', { name: '₹1,000', exact: true })).toBeVisible();
    const split = new RegExp(`^${escapeRegExp(en('ledger.parts.label', { number: '1' }))}\\s*${rupeesPattern('ledger.parts.interest', ['amount'])} · ${rupeesPattern('ledger.parts.principal', ['amount'])}$`);
    await expect(receipt.getByRole('cell', { name: split })).toBeVisible();
    await receipt.getByRole('button', { name: en('common.close') }).click();
    await expect(receipt).toBeHidden();

    // The EMI plan: a Rs 500 penalty on the first instalment, then Rs 200 of it waived with a reason.
    await page.getByRole('link', { name: NAME }).click();
    await page.getByRole('link', { name: en('customerDetails.emiPlan') }).click();
    await expect(page.getByRole('heading', { name: en('emiPlan.title'), level: 1 })).toBeVisible();
    const first = ` (${en('emi.table.number')} 1)`;
    await page.getByRole('button', { name: `${en('emiEdit.penalty')}${first}` }).click();
    const penalty = page.getByRole('dialog', { name: en('emiEdit.penaltyTitle', { number: '1' }) });
    await penalty.getByLabel(en('emi.table.amount')).fill('500');
    await penalty.getByLabel(en('emiEdit.reason')).fill('Paid three weeks late');
    await penalty.getByRole('button', { name: en('customerEdit.save') }).click();
    await expect(penalty).toBeHidden();
    await expect(page.getByText(en('emi.penalty', { amount: '₹500' }))).toBeVisible();

    await page.getByRole('button', { name: `${en('ledger.waive.button')}${first}` }).click();
    const waive = page.getByRole('dialog', { name: en('ledger.waive.title', { number: '1' }) });
    // All of the unpaid penalty unless changed.
    await expect(waive.getByLabel(en('ledger.waive.amount'))).toHaveValue('500');
    await waive.getByLabel(en('ledger.waive.amount')).fill('600');
    await waive.getByLabel(en('ledger.waive.reason')).fill('Customer was in hospital');
    await waive.getByRole('button', { name: en('ledger.waive.submit') }).click();
    await expect(waive.getByText(en('ledger.waive.tooLarge', { amount: '₹500' }))).toBeVisible();
    await waive.getByLabel(en('ledger.waive.amount')).fill('200');
    await waive.getByRole('button', { name: en('ledger.waive.submit') }).click();
    await expect(waive).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: en('messages.PENALTY_WAIVED') })).toBeVisible();
    await expect(page.getByText(en('emi.penalty', { amount: '₹300' }))).toBeVisible();
    const plan = page.getByRole('main');
    const outstanding = await figureAfter(plan, en('emi.outstanding'));
    expect(outstanding).toMatch(/^₹[\d,]+(\.\d{1,2})?$/);

    // The statement: the penalty and its waiver with their reasons, and a last balance equal to the outstanding.
    await page.getByRole('link', { name: en('ledger.statement.title') }).click();
    await expect(page.getByRole('heading', { name: en('ledger.statement.title'), level: 1 })).toBeVisible();
    const statement = page.getByRole('table', { name: en('ledger.statement.heading') });
    const waiverLine = statement.getByRole('row').filter({ hasText: en('ledger.statement.kind.waiver') });
    await expect(waiverLine).toHaveCount(1);
    await expect(waiverLine).toContainText(en('ledger.statement.instalment', { number: '1' }));
    await expect(waiverLine).toContainText('Customer was in hospital');
    await expect(waiverLine.getByRole('cell', { name: '-₹200', exact: true })).toBeVisible();
    await expect(statement.getByRole('row').filter({ hasText: en('ledger.statement.kind.penalty') })).toContainText('+₹500');
    const paymentLine = statement.getByRole('row').filter({ hasText: en('ledger.statement.kind.payment') });
    await expect(paymentLine).toContainText('-₹1,000');
    await expect(paymentLine).toContainText(new RegExp(rupeesPattern('ledger.parts.interest', ['amount'])));
    expect(await figureAfter(page, en('ledger.statement.closing'))).toBe(outstanding);
    const lastBalance = (await statement.getByRole('row').last().getByRole('cell').last().innerText()).replace(en('ledger.statement.balance'), '').trim();
    expect(lastBalance).toBe(outstanding);
    // The changes: who waived what, with the penalty before and after and why.
    const changes = page.getByRole('region', { name: en('ledger.changes.title') });
    const waived = changes.getByRole('listitem').filter({ hasText: en('ledger.changes.kind.waiver', { number: '1' }) });
    await expect(waived).toContainText('₹500 → ₹300');
    await expect(waived).toContainText(en('ledger.changes.reason', { reason: 'Customer was in hospital' }));

    // Close the loan early. The quote shows its parts, the fee and the saving against the schedule.
    await page.getByRole('link', { name: en('emiPlan.title') }).click();
    await page.getByRole('button', { name: en('ledger.foreclose.button') }).click();
    const close = page.getByRole('dialog', { name: en('ledger.foreclose.title') });
    await expect(close.getByText(en('ledger.foreclose.total'), { exact: true })).toBeVisible();
    await expect(close.getByText(en('ledger.foreclose.fee'), { exact: true })).toBeVisible();
    await expect(close.getByText(en('ledger.foreclose.saving'), { exact: true })).toBeVisible();
    const quoted = await figureAfter(close, en('ledger.foreclose.total'));
    expect(await figureAfter(close, en('ledger.foreclose.penalty'))).toBe('₹300');

    // Meanwhile another penalty is charged from elsewhere: the confirm is refused, and the new total is shown.
    const details = await retailer.request<{ instalments: Array<{ id: number; number: number }> }>('GET', `/api/emi/customer_emi_details?customer_id=${customer.id}`);
    const second = details.instalments.find((i) => i.number === 2)!;
    await retailer.request('POST', '/api/emi/send_penalty', { customer_id: customer.id, instalment_id: second.id, amount_paise: 10_000, reason: 'Cheque bounced' });
    await close.getByRole('button', { name: en('ledger.foreclose.confirm', { amount: quoted }) }).click();
    await expect(close.getByRole('status')).toContainText(new RegExp(rupeesPattern('ledger.foreclose.changed', ['amount'])));
    const requoted = await figureAfter(close, en('ledger.foreclose.total'));
    expect(requoted).not.toBe(quoted);
    await expect(close.getByRole('status')).toContainText(requoted);

    // Confirmed at the new total: the receipt opens as a payment's does, with nothing left owed.
    await close.getByLabel(en('emi.pay.method')).selectOption('upi');
    await close.getByRole('button', { name: en('ledger.foreclose.confirm', { amount: requoted }) }).click();
    const closedReceipt = page.getByRole('dialog', { name: en('receipt.title'), exact: true });
    await expect(closedReceipt).toBeVisible();
    await expect(closedReceipt.getByText(requoted, { exact: true }).first()).toBeVisible();
    await expect(closedReceipt.getByText(en('paymentMethod.upi'), { exact: true })).toBeVisible();
    await expect(closedReceipt.getByText(`${en('receipt.outstandingAfter')} ₹0`, { exact: true })).toBeVisible();
    await closedReceipt.getByRole('button', { name: en('common.close') }).click();
    await expect.poll(() => figureAfter(plan, en('emi.outstanding'))).toBe('₹0');
    await expect(page.getByRole('button', { name: en('ledger.foreclose.button') })).toHaveCount(0);
  } finally {
    await retailer.signOut();
  }
});
