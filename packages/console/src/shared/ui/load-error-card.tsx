/** A card saying something could not be loaded, with Retry (left out when retrying cannot help). */
import { useTranslation } from 'react-i18next';

export interface LoadErrorCardProps {
  message: string;
  onRetry?: () => void;
  as?: 'div' | 'article';
}

export function LoadErrorCard({ message, onRetry, as: Tag = 'div' }: LoadErrorCardProps) {
  const { t } = useTranslation();
  return (
    <Tag className="card">
      <p>{message}</p>
      {onRetry ? (
        <button type="button" className="button button--secondary" onClick={onRetry}>
          {t('common.retry')}
        </button>
      ) : null}
    </Tag>
  );
}
