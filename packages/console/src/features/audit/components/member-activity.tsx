/** A member's five latest entries of the activity log, for its profile (composed in by app/retailer-profile-route.tsx). */
import { useTranslation } from 'react-i18next';
import { Skeleton, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { useGetMemberActivityQuery } from '../api/audit-api.ts';
import { ActivityItem } from './activity-item.tsx';
import './audit.css';

export function MemberActivity({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const { data, isLoading, isError, refetch } = useGetMemberActivityQuery(userId);
  return (
    <section className="card stack" aria-labelledby="member-activity-title">
      <h2 id="member-activity-title">{t('audit.recent')}</h2>
      {isLoading ? (
        <Skeleton height={SKELETON_SMALL} />
      ) : isError || !data ? (
        <LoadErrorCard message={t('audit.loadError')} onRetry={() => void refetch()} />
      ) : data.items.length === 0 ? (
        <p className="muted">{t('audit.empty')}</p>
      ) : (
        <ul className="list">
          {data.items.map((entry) => (
            <ActivityItem key={entry.id} entry={entry} />
          ))}
        </ul>
      )}
    </section>
  );
}
