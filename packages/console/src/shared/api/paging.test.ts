import { describe, expect, it } from 'vitest';
import { mergePages, nextPageParam, type Paged } from './paging.ts';

const page = (n: number, ids: number[], total: number, limit = 2): Paged<{ id: number }> => ({
  items: ids.map((id) => ({ id })),
  total,
  page: n,
  limit,
});

describe('nextPageParam', () => {
  it('asks for the next page while rows remain', () => {
    const first = page(1, [1, 2], 5);
    expect(nextPageParam(first, [first])).toBe(2);
  });

  it('stops when the loaded rows reach the total', () => {
    const pages = [page(1, [1, 2], 4), page(2, [3, 4], 4)];
    expect(nextPageParam(pages[1]!, pages)).toBeUndefined();
  });

  it('stops on a short or empty page even if the total says more (rows were deleted meanwhile)', () => {
    const pages = [page(1, [1, 2], 9), page(2, [3], 9)];
    expect(nextPageParam(pages[1]!, pages)).toBeUndefined();
    const empty = page(1, [], 0);
    expect(nextPageParam(empty, [empty])).toBeUndefined();
  });

  it('goes on past a total the server stopped counting at', () => {
    const pages = [{ ...page(1, [1, 2], 2), total_capped: true }];
    expect(nextPageParam(pages[0]!, pages)).toBe(2);
  });
});

describe('mergePages', () => {
  it('joins the pages in order, drops a row seen twice and takes the newest total', () => {
    const pages = [page(1, [5, 4], 5), page(2, [4, 3], 6)];
    expect(mergePages(pages, (c) => c.id)).toEqual({ items: [{ id: 5 }, { id: 4 }, { id: 3 }], total: 6, totalText: '6' });
  });

  it('is empty before anything loaded', () => {
    expect(mergePages(undefined, (c: { id: number }) => c.id)).toEqual({ items: [], total: 0, totalText: '0' });
  });

  it('reads a capped total as a lower bound', () => {
    expect(mergePages([{ ...page(1, [1, 2], 1000), total_capped: true }], (c) => c.id).totalText).toBe('1000+');
  });
});
