/** Placeholder blocks for screens that show their layout while loading (heights 80 and 180). */
import { SKELETON_HEIGHTS } from '@kisht/domain/constants';

export const [SKELETON_SMALL, SKELETON_LARGE] = SKELETON_HEIGHTS;

export function Skeleton({ height = SKELETON_SMALL }: { height?: number }) {
  return <div className="skeleton" style={{ height }} aria-hidden="true" />;
}

/** A list's rows while its first page loads: `rows` small placeholders, announced as loading. */
export function SkeletonList({ rows, label }: { rows: number; label: string }) {
  return (
    <div className="stack" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={SKELETON_SMALL} />
      ))}
    </div>
  );
}
