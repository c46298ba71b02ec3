import { describe, expect, it } from 'vitest';
import { customerListArg } from './list-query.ts';

describe('customerListArg', () => {
  it('sends only the filters that narrow the list', () => {
    expect(customerListArg({ status: 'all', lockStatus: 'all', search: '' })).toEqual({ status: 'all' });
    expect(customerListArg({ status: 'install', lockStatus: 1, search: '  ravi   kumar ' })).toEqual({
      status: 'install',
      lock_status: 1,
      search: 'ravi kumar',
    });
    expect(customerListArg({ status: 'all', lockStatus: 0, search: '' })).toEqual({ status: 'all', lock_status: 0 });
  });

  it('gives the same key for searches that differ only in spaces', () => {
    expect(customerListArg({ status: 'all', lockStatus: 'all', search: ' 35 ' })).toEqual(
      customerListArg({ status: 'all', lockStatus: 'all', search: '35' }),
    );
  });

  it('cuts a search to the 60 characters the server accepts', () => {
    expect(customerListArg({ status: 'all', lockStatus: 'all', search: 'x'.repeat(80) }).search).toHaveLength(60);
  });
});
