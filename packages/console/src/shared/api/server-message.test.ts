import { describe, expect, it } from 'vitest';
import { keepServerMessage } from './server-message.ts';

describe('keepServerMessage', () => {
  const request = new Request('http://localhost/api/customer');
  it("keeps the server's message next to the data", () => {
    expect(keepServerMessage({ id: 7 }, { request, message: 'Customer enrolled.' })).toEqual({ id: 7, serverMessage: 'Customer enrolled.' });
  });
  it('says null when the reply carried no message, so the screen falls back to its own key', () => {
    expect(keepServerMessage({ id: 7 }, { request })).toEqual({ id: 7, serverMessage: null });
    expect(keepServerMessage({ id: 7 }, undefined)).toEqual({ id: 7, serverMessage: null });
  });
});
