/** The end of an infinite list: asks for the next page when it scrolls into view (and offers a button). */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Skeleton, SKELETON_SMALL } from './skeleton.tsx';

export interface LoadMoreProps {
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
}

export function LoadMore({ hasMore, loading, onLoadMore }: LoadMoreProps) {
  const { t } = useTranslation();
  const sentinel = useRef<HTMLDivElement>(null);
  const load = useRef(onLoadMore);
  useEffect(() => {
    load.current = onLoadMore;
  });

  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasMore || loading || typeof IntersectionObserver === 'undefined') return;
    // Start loading a little before the end shows, so scrolling rarely waits.
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) load.current();
    }, { rootMargin: '0px 0px 300px 0px' });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasMore, loading]);

  if (loading) {
    return (
      <div aria-busy="true" aria-label={t('common.loadingMore')}>
        <Skeleton height={SKELETON_SMALL} />
      </div>
    );
  }
  if (!hasMore) return null;
  return (
    <div ref={sentinel} className="load-more">
      <button type="button" className="button button--secondary button--small" onClick={onLoadMore}>
        {t('common.loadMore')}
      </button>
    </div>
  );
}
