/**
 * The audit log in the console: a retailer signs in, records a payment, opens Activity from the menu and
 * finds both there, with who, when and from which device; the payments filter keeps only the payment.
 */
import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { RetailerApi, randomImei } from '@kisht/agent/retailer-api';
import { BASE_URL } from '../playwright.config.ts';
import { en, signInWithOtp, passMpin } from './fixtures.ts';

test('a payment taken in the console shows in Activity, with the sign-in before it', async ({ page, request }) => {
  // A customer to take the payment from, added the way the API allows.
  const api = new RetailerApi(BASE_URL);
  // Sunita (a mini-retailer): the other journeys set the MPIN of the retailers they sign in as.
  await api.signIn('+919876543211');
  const customerId = await api.addCustomer(randomImei(), 'Activity');

  await signInWithOtp(page, request, '9876543211');
  await passMpin(page);

  // The action: the first EMI, paid in the console.
  await page.goto(`/view-emi-details/${customerId}`);
  await passMpin(page);
  await page.getByRole('checkbox', { name: en('emi.selectOne', { number: '1' }) }).check();
  await page.getByRole('button', { name: en('emi.paySelected') }).click();
  await page.getByLabel(en('emi.pay.method')).selectOption('upi');
  await page.getByLabel(en('emi.pay.reference')).fill('UTR445566');
  await page.getByRole('button', { name: en('emi.pay.confirm') }).click();
  const receipt = page.getByRole('dialog');
  await expect(receipt.getByText('UTR445566')).toBeVisible();
  await receipt.getByRole('button', { name: en('common.close') }).click();

  // Activity, from the menu.
  await page.getByRole('button', { name: en('nav.openMenu') }).click();
  await page.getByRole('navigation', { name: en('nav.menu') }).getByRole('link', { name: en('audit.title') }).click();
  await expect(page.getByRole('heading', { name: en('audit.title') })).toBeVisible();

  const rows = page.getByRole('region', { name: en('audit.title') }).getByRole('listitem');
  const payment = rows.filter({ hasText: en('audit.action.emi_pay') }).first();
  await expect(payment).toBeVisible();
  await expect(payment.getByRole('link', { name: 'Fleet Activity' })).toBeVisible();
  await expect(payment.getByText(en('audit.outcome.done'))).toBeVisible();
  await expect(payment.getByText('Sunita Sharma')).toBeVisible();
  // The console's own device headers say where it came from.
  await expect(payment.getByText(new RegExp(`^${en('audit.from')} `))).toBeVisible();
  await expect(rows.filter({ hasText: en('audit.action.auth_sign_in') }).first()).toBeVisible();

  // Newest first: the payment is above the sign-in that came before it.
  const texts = await rows.allInnerTexts();
  const paidAt = texts.findIndex((t) => t.includes(en('audit.action.emi_pay')));
  const signedInAt = texts.findIndex((t) => t.includes(en('audit.action.auth_sign_in')));
  expect(paidAt).toBeGreaterThanOrEqual(0);
  expect(paidAt).toBeLessThan(signedInAt);

  // Nothing spills sideways at 360 px.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/activity-360.png', fullPage: false });

  // The payments filter keeps only payments.
  await page.getByLabel(en('audit.filter.label')).selectOption({ label: en('audit.filter.payments') });
  await expect(rows.filter({ hasText: en('audit.action.auth_sign_in') })).toHaveCount(0);
  await expect(rows.filter({ hasText: en('audit.action.emi_pay') })).toHaveCount(1);
  await expect(page.getByText(en('audit.total_one', { count: '1' }))).toBeVisible();
});
