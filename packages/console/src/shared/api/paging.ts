/**
 * Page-numbered lists ({items, total, page, limit}) read with RTK Query infinite queries: the loaded
 * pages stay in the cache under the list's filters, so coming back to a list shows what was loaded.
 */

export interface Paged<T> {
  items: T[];
  total: number;
  /** The server stopped counting at `total` (the customer list with a search): at least that many, maybe more. */
  total_capped?: boolean;
  page: number;
  limit: number;
}

/** Lists load 20 rows a page. */
export const PAGE_SIZE = 20;

/** The next page number, or undefined once everything the server counted has been loaded. */
export function nextPageParam<T>(lastPage: Paged<T>, allPages: readonly Paged<T>[]): number | undefined {
  const loaded = allPages.reduce((sum, page) => sum + page.items.length, 0);
  if (lastPage.items.length === 0 || lastPage.items.length < lastPage.limit) return undefined;
  if (loaded >= lastPage.total && !lastPage.total_capped) return undefined;
  return lastPage.page + 1;
}

/**
 * The rows of all loaded pages in order, each once. A row can appear on two pages when rows were added
 * between two page loads (it slides down into the next page); the first sighting wins. The total is
 * the newest page's count; `totalText` is how it reads ("1000+" when the server stopped counting).
 */
export function mergePages<T>(pages: readonly Paged<T>[] | undefined, keyOf: (item: T) => string | number): { items: T[]; total: number; totalText: string } {
  if (!pages || pages.length === 0) return { items: [], total: 0, totalText: '0' };
  const seen = new Set<string | number>();
  const items: T[] = [];
  for (const page of pages) {
    for (const item of page.items) {
      const key = keyOf(item);
      if (seen.has(key)) continue;
      seen.add(key);
      items.push(item);
    }
  }
  const newest = pages.reduce((best, page) => (page.page > best.page ? page : best));
  return { items, total: newest.total, totalText: newest.total_capped ? `${newest.total}+` : String(newest.total) };
}

/** A list that answers `{ items, page, has_more }`: whether more follow, not how many (payments, notifications). */
export interface MorePage<T> {
  items: T[];
  page: number;
  has_more: boolean;
}

export function nextMorePage<T>(lastPage: MorePage<T>): number | undefined {
  return lastPage.has_more && lastPage.items.length > 0 ? lastPage.page + 1 : undefined;
}

/** The rows of all loaded pages, each once (a row that slid onto the next page while paging shows where first seen). */
export function mergeMorePages<T extends { id: string | number }>(pages: readonly MorePage<T>[] | undefined): T[] {
  const seen = new Set<string | number>();
  const items: T[] = [];
  for (const page of pages ?? []) {
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
  }
  return items;
}
