import { describe, expect, it } from 'vitest';
import { formatRupees } from '@kisht/domain/money';
import type { LockScreen } from '@kisht/protocol/messages';
import type { DeviceAgent } from '../agent.ts';
import { initialState } from '../state.ts';
import { amountDueText, buildView, NO_PAYMENT, untilText } from './view.ts';

describe('the lock screen amount line', () => {
  it('shows what is due, and nothing (not "Rs 0") when nothing is due', () => {
    expect(amountDueText(150_000)).toBe(formatRupees(150_000));
    expect(amountDueText(1)).toBe(formatRupees(1));
    expect(amountDueText(0)).toBeNull();
    expect(amountDueText(-500)).toBeNull();
  });
});

/** A locked phone showing `lockScreen`, as much of an agent as the view reads. */
function lockedPhone(lockScreen: LockScreen): DeviceAgent {
  const state = initialState({ imei1: '356938035643809' });
  state.status = 'enrolled';
  state.screen.locked = true;
  state.screen.lockScreen = lockScreen;
  return { snapshot: () => structuredClone(state), now: () => 0, isOnline: true, isConnected: true } as unknown as DeviceAgent;
}

const screen: LockScreen = { amount_due: 250_000, upi: null, retailer_name: 'Ravi Kumar', retailer_mobile: '+919876543210', message: null, language: 'en' };

describe('the lock screen payment buttons', () => {
  it('offer "Pay now" only when the server says the gateway is on (older lock screens carry no flag)', async () => {
    expect((await buildView(lockedPhone(screen), undefined, null)).lockScreen!.payNow).toBe(false);
    expect((await buildView(lockedPhone({ ...screen, pay_now: false }), undefined, null)).lockScreen!.payNow).toBe(false);
    expect((await buildView(lockedPhone({ ...screen, pay_now: true }), undefined, null)).lockScreen!.payNow).toBe(true);
  });

  it("show the gateway order's amount, its UPI link as a QR code and its payment page", async () => {
    const upi = 'upi://pay?pa=kisht%40razorpay&pn=Kisht&am=2500.00&cu=INR&tr=ord_1';
    const view = await buildView(lockedPhone({ ...screen, pay_now: true }), undefined, null, {
      ...NO_PAYMENT, order: { order_id: 'ord_1', amount_paise: 250_000, upi_link: upi, short_url: 'https://rzp.io/i/abc' },
    });
    expect(view.payment).toEqual({
      order: { amount: formatRupees(250_000), upiLink: upi, upiQr: expect.stringMatching(/^data:image\/png;base64,/), shortUrl: 'https://rzp.io/i/abc' },
      claimSent: false,
      problem: null,
    });
  });
});

describe("the outcome of the customer's claim", () => {
  it('comes from the lock screen the server last sent, the amount formatted; older lock screens carry none', async () => {
    expect((await buildView(lockedPhone(screen), undefined, null)).lockScreen!.claim).toBeNull();
    const rejected = { status: 'rejected' as const, amount_paise: 150_000, reason: 'No payment received', at: '2025-01-01T10:00:00.000Z' };
    expect((await buildView(lockedPhone({ ...screen, claim: rejected }), undefined, null)).lockScreen!.claim).toEqual({ status: 'rejected', amount: formatRupees(150_000), reason: 'No payment received' });
    const open = { status: 'open' as const, amount_paise: null, reason: null, at: '2025-01-01T10:00:00.000Z' };
    expect((await buildView(lockedPhone({ ...screen, claim: open }), undefined, null)).lockScreen!.claim).toEqual({ status: 'open', amount: null, reason: null });
  });
});

describe('when a family-care block ends, as the child reads it', () => {
  const at = (time: string) => Date.parse(`2026-11-26T${time}:00+05:30`);
  it('is a time within the next 24 hours, a date and time beyond', () => {
    expect(untilText(at('21:45') + 9 * 3_600_000 + 15 * 60_000, at('21:45'))).toBe('07:00 AM');
    expect(untilText(at('18:00'), at('17:00'))).toBe('06:00 PM');
    expect(untilText(at('18:00') + 86_400_000, at('17:00'))).toBe('27-11-2026 06:00 PM');
  });
});

describe('the Offers channel on the screen', () => {
  const offer = { commandId: 'c-1', seq: 3, campaignId: 12, title: 'Diwali sale', text: 'Half price', link: 'https://shop.example/d', image: '/api/device/offer_image?campaign_id=12', shownAt: 0, openedAt: null };
  function phoneWith(change: (state: ReturnType<typeof initialState>) => void): DeviceAgent {
    const state = initialState({ imei1: '356938035643809' });
    state.status = 'enrolled';
    state.offers = [offer, { ...offer, commandId: 'c-0', seq: 2, campaignId: 11, title: 'Earlier', image: null, openedAt: 5 }];
    change(state);
    return { snapshot: () => structuredClone(state), now: () => 0, isOnline: true, isConnected: true } as unknown as DeviceAgent;
  }

  it('lists the offers newest first, the picture through the screen server, opened ones marked', async () => {
    const view = await buildView(phoneWith(() => undefined), undefined, null);
    expect(view.offers).toEqual({
      optedOut: false,
      items: [
        { commandId: 'c-1', campaignId: 12, title: 'Diwali sale', text: 'Half price', link: 'https://shop.example/d', image: '/offer-image?campaign_id=12', opened: false },
        { commandId: 'c-0', campaignId: 11, title: 'Earlier', text: 'Half price', link: 'https://shop.example/d', image: null, opened: true },
      ],
    });
  });

  it('lists none on or over the lock screen, lost mode or a self-lock', async () => {
    for (const change of [
      (s: ReturnType<typeof initialState>) => { s.screen.locked = true; },
      (s: ReturnType<typeof initialState>) => { s.screen.lostMode = { on: true, message: null, phone: null }; },
      (s: ReturnType<typeof initialState>) => { s.selfLocked = true; },
    ]) {
      expect((await buildView(phoneWith(change), undefined, null)).offers).toEqual({ optedOut: false, items: [] });
    }
  });

  it('lists none once the customer switched shop offers off, and the EMI alert still shows', async () => {
    const view = await buildView(phoneWith((s) => {
      s.offersOptOut = true;
      s.screen.emiAlert = { message: 'Your EMI is due', amount_due: 150_000, due_date: '2026-12-05', upi: null, language: 'en' };
    }), undefined, null);
    expect(view.offers).toEqual({ optedOut: true, items: [] });
    expect(view.emiAlert).toMatchObject({ message: 'Your EMI is due', amountDue: formatRupees(150_000) });
  });
});
