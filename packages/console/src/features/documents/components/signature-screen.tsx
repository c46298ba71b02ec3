/** Replaces a customer's signature or the witness's with a new one drawn on the pad. */
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../shared/ui/page.tsx';
import { SignaturePad } from '../../../shared/ui/signature-pad.tsx';
import { DocumentImage } from '../../../shared/ui/document-image.tsx';
import { NotFoundScreen } from '../../../shared/ui/not-found-screen.tsx';
import { toastServerSuccess } from '../../../shared/ui/toast-store.ts';
import { useGetCustomerProfileQuery } from '../../../shared/customers/customer-api.ts';
import { useUploadDocumentMutation } from '../../../shared/documents/documents-api.ts';
import { selectFeatures } from '../../../shared/config/config-api.ts';
import { useAppSelector } from '../../../shared/state/hooks.ts';
import { customerPath, parseCustomerId } from '../../../shared/routes.ts';
import './documents.css';

export function SignatureScreen({ witness = false }: { witness?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const customerId = parseCustomerId(useParams().customer_id);
  const features = useAppSelector(selectFeatures);
  const { data: profile } = useGetCustomerProfileQuery(customerId ?? 0, { skip: customerId === null });
  const [signature, setSignature] = useState<Blob | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [upload, { isLoading }] = useUploadDocumentMutation();
  if (customerId === null) return <NotFoundScreen />;

  const documentType = witness ? 'witness_signature' : 'signature';
  const title = witness ? t('documents.type.witness_signature') : t('documents.type.signature');
  if (witness && !features.witness_signature) {
    return (
      <Page title={title}>
        <p className="card">{t('documents.witnessOff')}</p>
      </Page>
    );
  }

  async function save() {
    if (!signature || customerId === null) return setError(t('common.required'));
    try {
      const stored = await upload({ customerId, documentType, file: signature, fileName: `${documentType}.png` }).unwrap();
      toastServerSuccess(stored.serverMessage, 'documents.toast.signatureSaved');
      await navigate(customerPath('customer_documents', customerId), { replace: true });
    } catch {
      // The error toast already says what went wrong.
    }
  }

  const present = witness ? profile?.has_witness_signature : profile?.has_signature;
  return (
    <Page title={title}>
      {profile ? <p className="page-subtitle">{`${profile.first_name} ${profile.last_name}`.trim()}</p> : null}
      {present ? (
        <section className="card">
          <h2>{t('documents.current')}</h2>
          <DocumentImage className="document-card__signature" customerId={customerId} documentType={documentType} available alt={title} />
        </section>
      ) : null}
      <SignaturePad
        label={witness ? t('documents.witnessSignHere') : t('documents.signHere')}
        error={error}
        onChange={(blob) => {
          setSignature(blob);
          if (blob) setError(null);
        }}
      />
      <button type="button" className="button button--primary button--block" disabled={isLoading} onClick={() => void save()}>
        {t('documents.saveSignature')}
      </button>
    </Page>
  );
}

export function WitnessSignatureScreen() {
  return <SignatureScreen witness />;
}
