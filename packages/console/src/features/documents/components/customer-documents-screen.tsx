/**
 * A customer's four documents with previews. Photo and invoice are picked, shrunk and size-checked
 * in the browser, then uploaded; the signatures open their pads.
 */
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CustomerProfile } from '@kisht/contract/customers';
import { Page } from '../../../shared/ui/page.tsx';
import { DocumentImage } from '../../../shared/ui/document-image.tsx';
import { PhotoUpload } from '../../../shared/ui/photo-upload.tsx';
import { NotFoundScreen } from '../../../shared/ui/not-found-screen.tsx';
import { toastServerSuccess } from '../../../shared/ui/toast-store.ts';
import { useGetCustomerProfileQuery } from '../../../shared/customers/customer-api.ts';
import { useUploadDocumentMutation, type DocumentType } from '../../../shared/documents/documents-api.ts';
import { selectFeatures } from '../../../shared/config/config-api.ts';
import { useAppSelector } from '../../../shared/state/hooks.ts';
import { customerPath, parseCustomerId } from '../../../shared/routes.ts';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import './documents.css';

const PRESENT: Record<DocumentType, keyof CustomerProfile> = {
  photo: 'has_photo',
  signature: 'has_signature',
  witness_signature: 'has_witness_signature',
  invoice: 'has_invoice',
};

const TITLE_KEYS: Record<DocumentType, string> = {
  photo: 'documents.type.photo',
  signature: 'documents.type.signature',
  witness_signature: 'documents.type.witness_signature',
  invoice: 'documents.type.invoice',
};

function ImageUpload({ customerId, documentType, camera }: { customerId: number; documentType: 'photo' | 'invoice'; camera: boolean }) {
  const { t } = useTranslation();
  const [upload, { isLoading }] = useUploadDocumentMutation();
  return (
    <PhotoUpload
      label={t('documents.newImage')}
      camera={camera}
      busy={isLoading}
      upload={async (picked) => {
        const stored = await upload({ customerId, documentType, file: picked.blob, fileName: picked.fileName }).unwrap();
        toastServerSuccess(stored.serverMessage, 'documents.toast.uploaded');
      }}
    />
  );
}

function DocumentCard({ profile, documentType }: { profile: CustomerProfile; documentType: DocumentType }) {
  const { t } = useTranslation();
  const [replacing, setReplacing] = useState(false);
  const present = Boolean(profile[PRESENT[documentType]]);
  const title = t(TITLE_KEYS[documentType]);
  const isSignature = documentType === 'signature' || documentType === 'witness_signature';
  return (
    <section className="card document-card" aria-label={title}>
      <div className="session-card__title">
        <h2>{title}</h2>
        <span className={`badge badge--${present ? 'success' : 'neutral'}`}>{present ? t('documents.uploaded') : t('documents.notUploaded')}</span>
      </div>
      {present ? (
        <DocumentImage
          className={isSignature ? 'document-card__signature' : 'document-card__image'}
          customerId={profile.id}
          documentType={documentType}
          available
          alt={t('documents.previewAlt', { document: title })}
        />
      ) : null}
      {isSignature ? (
        <Link className="button button--secondary button--small" to={customerPath(documentType === 'signature' ? 'signature' : 'witness_signature', profile.id)}>
          {present ? t('documents.replaceSignature') : t('documents.addSignature')}
        </Link>
      ) : replacing || !present ? (
        <ImageUpload customerId={profile.id} documentType={documentType as 'photo' | 'invoice'} camera={documentType === 'photo'} />
      ) : (
        <button type="button" className="button button--secondary button--small" onClick={() => setReplacing(true)}>
          {t('documents.replace')}
        </button>
      )}
    </section>
  );
}

export function CustomerDocumentsScreen() {
  const { t } = useTranslation();
  const customerId = parseCustomerId(useParams().customer_id);
  const features = useAppSelector(selectFeatures);
  const { data: profile, isError, refetch } = useGetCustomerProfileQuery(customerId ?? 0, { skip: customerId === null });
  if (customerId === null) return <NotFoundScreen />;
  const types: DocumentType[] = ['photo', 'signature', 'invoice'];
  // The witness signature shows when the organisation uses it, or when one was stored before.
  if (features.witness_signature || profile?.has_witness_signature) types.splice(2, 0, 'witness_signature');
  return (
    <Page title={t('documents.title')}>
      {profile ? (
        <p className="page-subtitle">
          <Link to={customerPath('customer_details', customerId)}>{`${profile.first_name} ${profile.last_name}`.trim()}</Link>
        </p>
      ) : null}
      <p className="muted small">{t('documents.intro')}</p>
      {isError && !profile ? (
        <LoadErrorCard message={t('customerDetails.loadError')} onRetry={() => void refetch()} />
      ) : null}
      {profile ? types.map((type) => <DocumentCard key={type} profile={profile} documentType={type} />) : null}
    </Page>
  );
}
