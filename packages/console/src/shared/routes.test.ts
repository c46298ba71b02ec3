import { describe, expect, it } from 'vitest';
import { ROUTES, safeNextPath } from './routes.ts';

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
