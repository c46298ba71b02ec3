/**
 * Family care end to end (decisions 023 and 024): from the family-care screen the retailer enrols a child's phone on
 * the plan alone; on customer details sets, for the parent, a 30-minute limit for today and a bedtime window; the
 * phone confirms the rules; the child plays on the virtual phone until the limit closes the game; the console shows
 * the screen time on its chart as the phone reports it, without a reload; and the dialler still opens.
 *
 * The phone runs on a clock the test moves (as the agent's own family-care test does): it starts before now, never
 * before today's India midnight, so every minute it counts falls on the India day the console calls today.
 */
import { expect, test } from '@playwright/test';
import { addDays } from '@kisht/domain/calendar';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import { formatDate, todayInIndia } from '@kisht/domain/format';
import { indiaMinutes, indiaWeekday } from '@kisht/protocol/family-rules';
import { DeviceAgent } from '@kisht/agent/agent';
import { MemoryStore } from '@kisht/agent/store';
import { startScreen } from '@kisht/agent/screen/screen-server';
import { parseEnrolmentPayload } from '@kisht/agent/enrolment-payload';
import { RetailerApi, randomImei } from '@kisht/agent/retailer-api';
import { APP_SECRET, BASE_URL } from '../playwright.config.ts';
import { RETAILER, runOperator } from './console-screens.ts';
import { en, passMpin, signInWithOtp } from './fixtures.ts';

const phoneText = (key: string, vars?: Record<string, string>) => en(`phone.${key}`, vars);
const MIN = 60_000;
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** HH:MM in India of a moment. */
function indiaClock(ms: number): string {
  const minutes = indiaMinutes(ms);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

test('a parent\'s screen-time limit and bedtime reach the child\'s phone, the limit closes the game, and the console shows the usage live', async ({ page, context, request }) => {
  test.setTimeout(150_000);
  // Not the demo retailer whose first sign-in another journey walks through: the layout test's, with one family-care key.
  await runOperator(BASE_URL, APP_SECRET, ['keys', `+91${RETAILER}`, String(PRODUCT_TYPE.FAMILYCARE), '1']);
  const imei = randomImei();
  const today = todayInIndia();
  const midnight = Date.parse(`${today}T00:00:00+05:30`);
  // The phone's clock: 40 minutes back (it moves 35 below), and never yesterday.
  const clock = { now: Math.max(midnight + MIN, Date.now() - 40 * MIN) };
  // A bedtime that cannot start while the child plays below.
  const bedtime = { start: indiaClock(clock.now + 120 * MIN), end: indiaClock(clock.now + 180 * MIN) };

  await signInWithOtp(page, request, RETAILER);
  await passMpin(page);

  // The family-care screen, from the menu.
  await page.getByRole('button', { name: en('nav.openMenu') }).click();
  await page.getByRole('dialog').getByRole('link', { name: en('familycare.list.title') }).click();
  await expect(page.getByRole('heading', { name: en('familycare.list.title') })).toBeVisible();

  // "Enrol a phone": the child's phone on family care alone, with the parent's number; its EMM QR opens next.
  await page.getByRole('link', { name: en('planPhone.enrolButton') }).click();
  await expect(page.getByRole('heading', { name: en('planPhone.title.familycare') })).toBeVisible();
  const plan = page.getByLabel(en('planPhone.plan'));
  await expect(plan.locator('option')).not.toHaveCount(0);
  if ((await plan.inputValue()) === '') await plan.selectOption({ index: 1 });
  await page.getByLabel(en('addCustomer.firstName')).fill('Meera');
  await page.getByLabel(en('addCustomer.lastName')).fill('Krishnan');
  await page.getByLabel(en('planPhone.phoneNumber')).fill('9812377041');
  await page.getByLabel(en('planPhone.parentMobile')).fill('9700044466');
  await page.getByLabel(en('device.brand')).selectOption({ index: 1 });
  await page.getByLabel(en('device.model')).fill('Redmi 13C');
  await page.getByLabel(en('device.imei1')).fill(imei);
  await page.getByRole('button', { name: en('planPhone.submit') }).click();
  await expect(page).toHaveURL(/\/emm-qr\?customer_id=\d+/);
  const customerId = Number(new URL(page.url()).searchParams.get('customer_id'));

  // The phone is set up from its QR.
  const retailer = new RetailerApi(BASE_URL, 'family care journey');
  await retailer.signIn(`+91${RETAILER}`);
  const qr = await retailer.request<{ qr_payload: string }>('GET', `/api/customer/generate_emm_code?customer_id=${customerId}`);
  await retailer.signOut().catch(() => undefined);
  const agent = new DeviceAgent({ store: new MemoryStore(), now: () => clock.now });
  await agent.enrol(parseEnrolmentPayload(qr.qr_payload), { imei1: imei }, [{ slot: 0, operator: 'Jio', iccid: '8991000000000000041' }]);
  agent.start();
  /** Moves the phone's clock and lets its own tick see it. */
  const advance = (ms: number) => {
    clock.now += ms;
    agent.tick();
  };
  const screen = await startScreen(agent, { port: 0, host: '127.0.0.1' });
  const phone = await context.newPage();
  try {
    // Customer details: family care for this phone, no rules yet and no usage.
    await page.goto(`/customer-details/${customerId}`);
    await passMpin(page);
    const section = page.getByRole('region', { name: en('familycare.title') });
    await expect(section.getByText(en('familycare.status.none'))).toBeVisible();
    await expect(section.getByText(en('familycare.coveredUntil', { date: formatDate(addDays(today, 364)) }))).toBeVisible();
    const usage = page.getByRole('region', { name: en('familycare.usage.title') });
    await expect(usage.getByText(en('familycare.usage.empty'))).toBeVisible();

    // The parent's rules: a limit the form refuses first, then 30 minutes today, and a bedtime window.
    // Today's day is marked "today" for a screen reader too.
    const todayLimit = section.getByLabel(`${en(`familycare.day.${WEEKDAYS[indiaWeekday(clock.now)]}`)} ${en('familycare.rules.today')}`, { exact: true });
    await todayLimit.fill('2000');
    await section.getByRole('button', { name: en('familycare.rules.save') }).click();
    await expect(section.getByText(en('familycare.rules.limitInvalid'))).toBeVisible();
    await todayLimit.fill('30');
    await section.getByRole('button', { name: en('familycare.rules.addWindow') }).click();
    const window = section.getByRole('group', { name: en('familycare.rules.window', { n: '1' }) });
    await window.getByLabel(en('familycare.rules.from')).fill(bedtime.start);
    await window.getByLabel(en('familycare.rules.to')).fill(bedtime.end);
    // The dialler is always allowed: blocking it is refused on the field.
    await section.getByLabel(en('familycare.rules.blocked')).fill('com.android.dialer');
    await section.getByRole('button', { name: en('familycare.rules.save') }).click();
    await expect(section.getByText(en('familycare.rules.cannotBlock', { app: 'com.android.dialer' }))).toBeVisible();
    await section.getByLabel(en('familycare.rules.blocked')).fill('');
    await section.getByRole('button', { name: en('familycare.rules.save') }).click();
    await expect(page.getByText(en('messages.FAMILY_RULES_SAVED'))).toBeVisible();

    // The phone takes them and says so: the console shows it without a reload (the command event).
    await expect(section.getByText(en('familycare.status.applied', { version: '1' }))).toBeVisible({ timeout: 30_000 });
    expect(agent.snapshot().familyCare).toMatchObject({ version: 1, limitMinutes: 30, rules: { downtime: [bedtime] } });

    // The child plays the game on the phone for 10 minutes; the phone reports its usage.
    await phone.goto(screen.url);
    await expect(phone.getByTestId('time-left')).toHaveText(phoneText('family.timeLeft', { minutes: '30' }));
    await phone.getByRole('button', { name: phoneText('family.app.game'), exact: true }).click();
    await expect(phone.getByRole('heading', { name: phoneText('family.using', { app: phoneText('family.app.game') }) })).toBeVisible();
    advance(10 * MIN);
    agent.reportUsage();

    // The console's chart shows it, as it arrived (the usage event): 10 minutes of the game today.
    await expect(usage.getByText(en('familycare.usage.lastReport', { time: '' }).trim())).toBeVisible({ timeout: 30_000 });
    await expect(usage.getByRole('img', { name: `${en('familycare.usage.perApp', { day: formatDate(today) })}: game 0:10` })).toBeVisible();
    await expect(usage.getByLabel(en('familycare.usage.chooseDay'))).toContainText(`${en('familycare.usage.today')}: ${en('familycare.duration.minutes', { minutes: '10' })}`);

    // The limit runs out while the game is open: the phone closes it, and only calls are left.
    advance(21 * MIN);
    await expect(phone.getByTestId('app-refused')).toHaveAttribute('data-reason', 'limit');
    await phone.getByRole('button', { name: phoneText('family.back') }).click();
    await expect(phone.getByRole('heading', { name: phoneText('family.block.limit.heading') })).toBeVisible();
    // The dialler still opens.
    await phone.getByRole('button', { name: phoneText('family.app.dialler'), exact: true }).click();
    await expect(phone.getByRole('heading', { name: phoneText('family.using', { app: phoneText('family.app.dialler') }) })).toBeVisible();
    advance(2 * MIN);
    agent.reportUsage();

    // The console follows: 30 minutes of the game, and the call on its own bar.
    await expect(usage.getByRole('img', { name: `${en('familycare.usage.perApp', { day: formatDate(today) })}: game 0:30, dialer 0:02` })).toBeVisible({ timeout: 30_000 });

    // The family-care screen lists the phone with its rules in force and today's screen time.
    await page.getByRole('button', { name: en('nav.openMenu') }).click();
    await page.getByRole('dialog').getByRole('link', { name: en('familycare.list.title') }).click();
    const row = page.getByRole('listitem').filter({ hasText: 'Meera Krishnan' });
    await expect(row.getByText(en('familycare.list.badge.inForce'), { exact: true })).toBeVisible();
    await expect(row.getByText(en('familycare.list.today', { time: en('familycare.duration.minutes', { minutes: '32' }) }))).toBeVisible();
    await row.getByRole('link', { name: en('familycare.list.details') }).click();
    await expect(page.getByRole('region', { name: en('familycare.title') })).toBeVisible();
  } finally {
    await phone.close();
    await screen.close();
    await agent.stop();
  }
});
