/**
 * How the offer shows on a customer's phone: a notification in the "Offers" channel with the shop's name, the
 * title, the text, the picture and where the link goes. It follows the form as the retailer types.
 */
import { useTranslation } from 'react-i18next';

export interface OfferPreviewProps {
  title: string;
  text: string;
  link: string;
  /** An object URL of the picked picture, or null. */
  imageUrl: string | null;
  shopName: string;
}

/** The address the link opens, as a phone shows it under a notification: its host, or nothing for a link that is not one. */
export function linkHost(link: string): string | null {
  try {
    const url = new URL(link.trim());
    return url.protocol === 'https:' ? url.host : null;
  } catch {
    return null;
  }
}

export function OfferPreview({ title, text, link, imageUrl, shopName }: OfferPreviewProps) {
  const { t } = useTranslation();
  const host = linkHost(link);
  return (
    <section className="card" aria-labelledby="ads-preview-title">
      <h2 id="ads-preview-title">{t('ads.preview.title')}</h2>
      <p className="muted small">{t('ads.preview.hint')}</p>
      <div className="offer-preview">
        <div className="offer-preview__head">
          <svg className="offer-preview__icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
            <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" d="M3 11v2a1 1 0 0 0 1 1h2l5 4V6L6 10H4a1 1 0 0 0-1 1zM15 9a4 4 0 0 1 0 6M18 6a8 8 0 0 1 0 12" />
          </svg>
          <span className="offer-preview__channel">{t('ads.preview.channel')}</span>
          <span aria-hidden="true">·</span>
          <span className="offer-preview__shop">{shopName}</span>
          <span aria-hidden="true">·</span>
          <span className="offer-preview__when">{t('ads.preview.now')}</span>
        </div>
        <p className={`offer-preview__title${title.trim() ? '' : ' offer-preview__placeholder'}`}>{title.trim() || t('ads.preview.titlePlaceholder')}</p>
        <p className={`offer-preview__text${text.trim() ? '' : ' offer-preview__placeholder'}`}>{text.trim() || t('ads.preview.textPlaceholder')}</p>
        {imageUrl ? <img className="offer-preview__image" src={imageUrl} alt={t('ads.preview.imageAlt')} /> : null}
        {host ? <p className="offer-preview__link">{t('ads.preview.opens', { host })}</p> : null}
      </div>
    </section>
  );
}
