/**
 * The retailer network end to end: a retailer adds a mini-retailer, who signs in with the OTP from the outbox;
 * keys go down, are used by an enrolment, are asked for and approved; the retailer's switch and block reach the
 * mini-retailer's open console without a reload (greyed, then signed out), and the API refuses as the screen says.
 */
import { expect, test, type Page } from '@playwright/test';
import { RetailerApi, randomImei } from '@kisht/agent/retailer-api';
import { BASE_URL } from '../playwright.config.ts';
import { cameraPhoto, en, passMpin, signInWithOtp } from './fixtures.ts';

const RETAILER = '9876543210';

async function openMenuItem(page: Page, label: string) {
  await page.getByRole('button', { name: en('nav.openMenu') }).click();
  await page.getByRole('navigation', { name: en('nav.menu') }).getByRole('link', { name: label }).click();
}

/** The first product type's line of the key stock (Android, the type an enrolment here uses). */
const androidStock = (page: Page) => page.getByRole('region', { name: en('network.stock.title') }).getByRole('listitem').first();

test('a mini-retailer is added, signs in, gets keys, uses one, asks for more; its switch and its block take effect at once', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const miniMobile = `97${String(Date.now()).slice(-8)}`;

  // The retailer adds a mini-retailer from its network screen.
  const retailerContext = await browser.newContext();
  const page = await retailerContext.newPage();
  await signInWithOtp(page, request, RETAILER);
  await passMpin(page);
  await openMenuItem(page, en('nav.network'));
  await expect(page.getByRole('heading', { name: en('network.listTitle') })).toBeVisible();
  await page.getByRole('link', { name: en('network.add') }).first().click();
  await page.getByRole('button', { name: en('network.addSubmit'), exact: true }).click();
  await expect(page.getByText(en('common.required')).first()).toBeVisible();
  await page.getByLabel(en('addCustomer.firstName')).fill('Lakshmi');
  await page.getByLabel(en('addCustomer.lastName')).fill('Counter');
  await page.getByLabel(en('addCustomer.mobile'), { exact: true }).fill(miniMobile);
  const photoLabel = en('common.optionalLabel', { label: en('network.images.photoTitle') });
  await page.getByRole('group', { name: photoLabel }).locator('input[type=file]:not([capture])').setInputFiles({ name: 'counter.jpg', mimeType: 'image/jpeg', buffer: await cameraPhoto(page) });
  await expect(page.getByRole('img', { name: en('photoInput.previewAlt', { label: photoLabel }) })).toBeVisible();
  await page.getByRole('button', { name: en('network.addSubmit'), exact: true }).click();
  // The toast first: it shows for 3.5 s, and the profile with its photo can take longer to load.
  await expect(page.getByRole('status').filter({ hasText: en('messages.MEMBER_ADDED') })).toBeVisible();
  await expect(page).toHaveURL(/\/retailer-profile\?user_id=\d+$/);
  // The photo went up with the new member, and shows on its profile.
  await expect(page.getByRole('img', { name: en('network.images.photoTitle'), exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Lakshmi Counter' })).toBeVisible();
  const memberId = Number(new URL(page.url()).searchParams.get('user_id'));

  // The same mobile again is refused with a clear message at the field.
  await page.goto('/add-retailer');
  await passMpin(page);
  await page.getByLabel(en('addCustomer.firstName')).fill('Again');
  await page.getByLabel(en('addCustomer.lastName')).fill('Taken');
  await page.getByLabel(en('addCustomer.mobile'), { exact: true }).fill(miniMobile);
  await page.getByRole('button', { name: en('network.addSubmit'), exact: true }).click();
  await expect(page.getByText(en('errors.MOBILE_TAKEN')).first()).toBeVisible();

  // The retailer's price per key for the first product type, written on the transfers it makes.
  await openMenuItem(page, en('nav.myProfile'));
  await page.getByRole('region', { name: en('network.prices.title') }).getByRole('button', { name: en('network.prices.edit') }).first().click();
  await page.getByLabel(en('network.prices.sellLabel')).fill('25');
  await page.getByRole('dialog').getByRole('button', { name: en('customerEdit.save') }).click();
  await expect(page.getByRole('status').filter({ hasText: en('messages.PRICE_SAVED') })).toBeVisible();
  await expect(page.getByRole('region', { name: en('network.prices.title') })).toContainText(en('network.prices.sell', { price: '₹25' }));

  // Five keys go to the mini-retailer.
  await page.goto(`/retailer-profile?user_id=${memberId}`);
  await passMpin(page);
  await page.getByRole('button', { name: en('network.transfer.send.open') }).click();
  await page.getByLabel(en('network.quantity')).fill('5');
  await page.getByRole('dialog').getByRole('button', { name: en('network.transfer.send.submit'), exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: en('messages.KEYS_MOVED') })).toBeVisible();
  await expect(page.getByRole('list', { name: en('network.keys') })).toContainText('5');

  // The mini-retailer signs in with the OTP from the outbox and sees its five keys.
  const miniContext = await browser.newContext();
  const mini = await miniContext.newPage();
  await signInWithOtp(mini, request, miniMobile);
  await passMpin(mini);
  await expect(androidStock(mini)).toContainText('5');

  // An enrolment from the shop's other phone uses one key: the open dashboard follows.
  const counter = new RetailerApi(BASE_URL, 'network journey');
  await counter.signIn(`+91${miniMobile}`);
  const customerId = await counter.addCustomer(randomImei(), 'Networkjourney');
  await expect(androidStock(mini)).toContainText('4');

  // Both histories show the movements.
  await openMenuItem(mini, en('nav.keyHistory'));
  await expect(mini.getByRole('listitem').filter({ hasText: en('network.history.kind.consumed') })).toContainText(en('network.history.balanceAfter', { count: '4' }));
  await expect(mini.getByRole('listitem').filter({ hasText: en('network.history.kind.received') })).toContainText('+5');
  await expect(mini.getByRole('listitem').filter({ hasText: en('network.history.kind.received') })).toContainText(en('network.history.price', { amount: '₹25' }));
  await page.getByRole('link', { name: en('network.historyLink') }).click();
  await expect(page.getByText(en('network.history.of', { name: 'Lakshmi Counter' }))).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: en('network.history.kind.consumed') })).toContainText(`#${customerId}`);

  // The mini-retailer asks for 3 more; the retailer approves from its own key history.
  await openMenuItem(mini, en('nav.myProfile'));
  await mini.getByRole('button', { name: en('network.transfer.request.open') }).click();
  await mini.getByLabel(en('network.quantity')).fill('3');
  await mini.getByRole('dialog').getByRole('button', { name: en('network.transfer.request.submit'), exact: true }).click();
  await expect(mini.getByRole('status').filter({ hasText: en('messages.KEYS_REQUESTED') })).toBeVisible();
  await openMenuItem(page, en('nav.keyHistory'));
  const asked = page.getByRole('listitem').filter({ hasText: en('network.history.kind.requested') }).filter({ hasText: 'Lakshmi Counter' });
  await asked.getByRole('button', { name: en('network.history.approve') }).click();
  await expect(page.getByRole('status').filter({ hasText: en('messages.REQUEST_DECIDED') })).toBeVisible();
  await openMenuItem(mini, en('nav.dashboard'));
  await expect(androidStock(mini)).toContainText('7');

  // lock_unlock off: the mini-retailer's open bulk lock screen greys Lock, and the API refuses.
  await openMenuItem(mini, en('bulkLock.title'));
  await expect(mini.getByText(en('bulkLock.noAccess'))).toBeHidden();
  await page.goto(`/retailer-profile?user_id=${memberId}`);
  await passMpin(page);
  await page.getByRole('checkbox', { name: en('network.switch.user_access.lock_unlock') }).uncheck();
  await expect(page.getByRole('status').filter({ hasText: en('messages.MEMBER_UPDATED') })).toBeVisible();
  await expect(mini.getByText(en('bulkLock.noAccess'))).toBeVisible();
  const refused = await counter.request('POST', '/api/device/lock', { customer_id: customerId }).then(() => 200, (error: { status: number }) => error.status);
  expect(refused).toBe(403);

  // Blocking ends its session: the open console goes to the sign-in screen.
  await page.getByRole('button', { name: en('network.block') }).click();
  await page.getByRole('dialog').getByRole('button', { name: en('network.block') }).click();
  await expect(page.getByText(en('network.blockedHelp'))).toBeVisible();
  await expect(mini).toHaveURL(/\/login/, { timeout: 20_000 });
  const afterBlock = await counter.request('GET', '/api/user').then(() => 200, (error: { status: number }) => error.status);
  expect(afterBlock).toBe(511);

  await miniContext.close();
  await retailerContext.close();
});

test('an enrolment whose phone was never set up is cancelled from customer navigate, and its key comes back', async ({ page, request }) => {
  test.setTimeout(120_000);
  await signInWithOtp(page, request, RETAILER);
  await passMpin(page);
  const before = Number((await androidStock(page).locator('.key-stock__count').innerText()).trim());
  const counter = new RetailerApi(BASE_URL, 'cancel journey');
  await counter.signIn(`+91${RETAILER}`);
  const customerId = await counter.addCustomer(randomImei(), 'Walkedaway');
  await expect(androidStock(page)).toContainText(String(before - 1));

  await page.goto(`/customer-navigate?customer_id=${customerId}`);
  await passMpin(page);
  await page.getByRole('button', { name: en('customerNavigate.cancel') }).click();
  await page.getByRole('dialog').getByRole('button', { name: en('customerNavigate.cancel') }).click();
  await expect(page.getByRole('status').filter({ hasText: en('messages.ENROLMENT_CANCELLED') })).toBeVisible();
  await expect(page).toHaveURL(/\/customers$/);
  await openMenuItem(page, en('nav.keyHistory'));
  await expect(page.getByRole('listitem').filter({ hasText: en('network.history.kind.released') }).first()).toContainText(`#${customerId}`);
  await openMenuItem(page, en('nav.dashboard'));
  await expect(androidStock(page)).toContainText(String(before));
  await counter.signOut();
});
