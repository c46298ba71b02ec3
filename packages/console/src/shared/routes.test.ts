import { describe, expect, it } from 'vitest';
import { advertisementPath, antihackingPath, customerListPath, warrantyPath, customerNavigatePath, customerPath, emmQrPath, parseCustomerId, receiptPath, ROUTES, safeNextPath } from './routes.ts';

describe('routes', () => {
  it('uses the specification route names', () => {
    expect(ROUTES.m_pin).toBe('/m-pin');
    expect(ROUTES.privacy_policy).toBe('/privacy-policy');
    expect(ROUTES.customer_details).toBe('/customer-details/:customer_id');
  });

  it('accepts only same-origin paths as the place to return to', () => {
    expect(safeNextPath('/sessions?x=1')).toBe('/sessions?x=1');
    expect(safeNextPath('//evil.example')).toBeNull();
    expect(safeNextPath('/\\evil.example')).toBeNull();
    expect(safeNextPath('https://evil.example')).toBeNull();
    expect(safeNextPath(null)).toBeNull();
  });
});

describe('customer addresses', () => {
  it('puts the id in the path, or in the query for customer navigate', () => {
    expect(customerPath('customer_details', 12)).toBe('/customer-details/12');
    expect(customerPath('view_emi_details', '7')).toBe('/view-emi-details/7');
    expect(customerNavigatePath(5)).toBe('/customer-navigate?customer_id=5');
    expect(emmQrPath(5)).toBe('/emm-qr?customer_id=5');
  });

  it('names the customer list\'s anti-hacking list in the query, the loans list by the plain path', () => {
    expect(customerListPath()).toBe('/customers');
    expect(customerListPath('antihacking')).toBe('/customers?tab=antihacking');
    expect(customerListPath('warranty')).toBe('/customers?tab=warranty');
  });

  it('opens the anti-hacking screen on a tier, a product and a plan', () => {
    expect(antihackingPath()).toBe('/antihacking');
    expect(warrantyPath()).toBe('/extended-warranty');
    expect(warrantyPath({ customerId: 12 })).toBe('/extended-warranty?customer_id=12');
    expect(warrantyPath({ saleId: 7, customerId: 12 })).toBe('/extended-warranty?sale_id=7');
    expect(antihackingPath({ appType: 12, productId: 40 })).toBe('/antihacking?app_type=12&product_id=40');
    expect(antihackingPath({ appType: 8, planId: 3, productId: 9 })).toBe('/antihacking?app_type=8&plan_id=3&product_id=9');
  });

  it('opens the offers screen on its form, the offers sent, or one offer', () => {
    expect(advertisementPath()).toBe('/send-advertisement');
    expect(advertisementPath({ tab: 'sent' })).toBe('/send-advertisement?tab=sent');
    expect(advertisementPath({ tab: 'sent', campaignId: 12 })).toBe('/send-advertisement?campaign_id=12');
  });

  it("opens a receipt by its number on the customer's EMI screen", () => {
    expect(receiptPath(7, 'R-23/0001 A&B')).toBe('/view-emi-details/7?receipt_no=R-23%2F0001%20A%26B');
  });

  it('accepts only positive whole ids', () => {
    expect(parseCustomerId('42')).toBe(42);
    for (const bad of [null, undefined, '', '0', '-1', '1.5', 'abc', '012', '99999999999']) expect(parseCustomerId(bad), String(bad)).toBeNull();
  });
});
