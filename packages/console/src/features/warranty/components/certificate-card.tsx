/**
 * A sale's certificate: worded by the server in the customer's language (or the one picked here), shown on screen,
 * and sent on as an image through the phone's share sheet; where the app shell cannot share files the image is
 * offered to download (or to press and hold), and Print makes a PDF of the certificate alone (the print styles).
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WarrantyCertificate, WarrantySale } from '@kisht/contract/warranty';
import { isLanguage, LANGUAGE_INFO, type Language } from '@kisht/domain/constants';
import { LanguageSelect } from '../../../shared/ui/language-select.tsx';
import { Skeleton, SKELETON_LARGE } from '../../../shared/ui/skeleton.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { toastKey } from '../../../shared/ui/toast-store.ts';
import { useObjectUrl } from '../../../shared/use-object-url.ts';
import { useGetWarrantyCertificateQuery } from '../api/warranty-api.ts';
import { certificateFileName, certificatePng, shareImage, type CertificateHeadings } from '../hooks/certificate-image.ts';
import { isOffline } from '../../../shared/api/api-failure.ts';

/** The section headings in the certificate's own language (its dictionary loads if the console's is another). */
function useCertificateHeadings(lng: Language | undefined): CertificateHeadings {
  const { t } = useTranslation(undefined, { lng });
  return {
    covers: t('warranty.certificate.sections.covers'),
    deductibles: t('warranty.certificate.sections.deductibles'),
    notes: t('warranty.certificate.sections.notes'),
    terms: t('warranty.certificate.sections.terms'),
  };
}

function CertificateView({ cert, headings }: { cert: WarrantyCertificate; headings: CertificateHeadings }) {
  const titleId = useId();
  const section = (heading: string, items: readonly string[]) =>
    items.length > 0 ? (
      <>
        <h4 className="certificate__heading">{heading}</h4>
        <ul className="certificate__list">
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </>
    ) : null;
  return (
    <article className="certificate" lang={LANGUAGE_INFO[cert.lng].tag} aria-labelledby={titleId}>
      <header className="certificate__band">
        <h3 id={titleId} className="certificate__title">
          {cert.title}
        </h3>
        <p className="certificate__number">{cert.certificate_no}</p>
      </header>
      <dl className="certificate__lines">
        {cert.lines.map((line) => (
          <div key={line.key} className="certificate__line">
            <dt>{line.label}</dt>
            <dd>{line.value}</dd>
          </div>
        ))}
      </dl>
      {section(headings.covers, cert.covers)}
      {section(headings.deductibles, cert.deductibles)}
      {section(headings.notes, cert.notes)}
      {cert.terms ? (
        <>
          <h4 className="certificate__heading">{headings.terms}</h4>
          <p className="certificate__terms">{cert.terms}</p>
        </>
      ) : null}
    </article>
  );
}

/** Where sharing files is not possible: the image to download, or to press and hold (the shell's own menu). */
function SaveImageDialog({ blob, fileName, alt, onClose }: { blob: Blob; fileName: string; alt: string; onClose: () => void }) {
  const { t } = useTranslation();
  const url = useObjectUrl(blob);
  return (
    <Dialog
      open
      title={t('warranty.cert.saveTitle')}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('common.close')}
          </button>
          {url ? (
            <a className="button button--primary" href={url} download={fileName}>
              {t('warranty.cert.download')}
            </a>
          ) : null}
        </>
      }
    >
      <p className="muted small">{t('warranty.cert.saveHint')}</p>
      {url ? <img className="certificate-image" src={url} alt={alt} /> : null}
    </Dialog>
  );
}

export function CertificateCard({ sale }: { sale: WarrantySale }) {
  const { t } = useTranslation();
  // null: the server's choice (the linked customer's language, else the retailer's).
  const [lng, setLng] = useState<Language | null>(null);
  // currentData: after a language change the old wording must not stay on screen while the new one loads.
  const { currentData: cert, isFetching, isError, error, refetch } = useGetWarrantyCertificateQuery({ saleId: sale.id, lng });
  const headings = useCertificateHeadings(cert?.lng);
  const [making, setMaking] = useState(false);
  const [offer, setOffer] = useState<{ blob: Blob; fileName: string } | null>(null);
  const chosen: Language = lng ?? (cert && isLanguage(cert.lng) ? cert.lng : 'en');

  async function share() {
    if (!cert) return;
    setMaking(true);
    try {
      const blob = await certificatePng(cert, headings);
      const fileName = certificateFileName(cert.certificate_no);
      const file = new File([blob], fileName, { type: 'image/png' });
      const outcome = await shareImage(file, { title: cert.title, text: `${cert.title}: ${cert.certificate_no}` }, navigator);
      if (outcome === 'unsupported') setOffer({ blob, fileName });
    } catch {
      toastKey('error', 'warranty.cert.imageFailed');
    } finally {
      setMaking(false);
    }
  }

  return (
    <section className="card certificate-card" aria-labelledby="certificate-card-title">
      <h2 id="certificate-card-title">{t('warranty.cert.heading')}</h2>
      <LanguageSelect label={t('warranty.cert.language')} value={chosen} disabled={!cert && !isError} onChange={setLng} />
      {cert ? (
        <CertificateView cert={cert} headings={headings} />
      ) : isError && !isFetching ? (
        <LoadErrorCard message={isOffline(error) ? t('warranty.offline') : t('warranty.cert.loadError')} onRetry={() => void refetch()} />
      ) : (
        <div aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton height={SKELETON_LARGE} />
        </div>
      )}
      <div className="button-row certificate-card__actions">
        <button type="button" className="button button--primary button--small" disabled={!cert || making} onClick={() => void share()}>
          {making ? t('warranty.cert.preparing') : t('warranty.cert.share')}
        </button>
        <button type="button" className="button button--secondary button--small" disabled={!cert} onClick={() => window.print()}>
          {t('warranty.cert.print')}
        </button>
      </div>
      {offer && cert ? (
        <SaveImageDialog blob={offer.blob} fileName={offer.fileName} alt={t('warranty.cert.imageAlt', { number: cert.certificate_no })} onClose={() => setOffer(null)} />
      ) : null}
    </section>
  );
}
