/**
 * A retailer's photo, signature and payment QR on its profile: each shown when uploaded, and replaced by a
 * new one. The payment QR must be a UPI QR: the server reads it and keeps the UPI address it found, from which
 * the QR shown here is drawn (as on Payment QR and the locked phones).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MemberProfile } from '@kisht/contract/network';
import { SignaturePad } from '../../../shared/ui/signature-pad.tsx';
import { MemberImage, MemberImageUpload } from '../../../shared/network/member-image.tsx';
import { useUploadMemberImageMutation } from '../../../shared/network/member-api.ts';
import { UpiQr } from '../../../shared/network/upi-qr.tsx';

function SignatureUpload({ userId }: { userId?: number }) {
  const { t } = useTranslation();
  const [signature, setSignature] = useState<Blob | null>(null);
  const [upload, { isLoading }] = useUploadMemberImageMutation();
  return (
    <div className="stack">
      <SignaturePad label={t('network.images.newSignature')} onChange={setSignature} height={150} />
      <button
        type="button"
        className="button button--primary"
        disabled={!signature || isLoading}
        onClick={() => void upload({ ...(userId !== undefined ? { userId } : {}), imageType: 'signature', file: signature!, fileName: 'signature.png' }).unwrap().catch(() => undefined)}
      >
        {t('network.images.saveSignature')}
      </button>
    </div>
  );
}

export function MemberImages({ member }: { member: MemberProfile }) {
  const { t } = useTranslation();
  const userId = member.own ? undefined : member.id;
  return (
    <>
      <section className="card stack" aria-labelledby="qr-title">
        <h2 id="qr-title">{t('network.images.qrTitle')}</h2>
        <p className="muted">{t('network.images.qrHelp')}</p>
        {member.upi_id ? (
          <p>
            {t('network.images.upiFound', { vpa: member.upi_id })}
            {member.upi_name ? ` · ${member.upi_name}` : ''}
          </p>
        ) : null}
        {member.upi_id ? <UpiQr vpa={member.upi_id} name={member.upi_name ?? (member.shop_name || `${member.first_name} ${member.last_name}`.trim())} alt={t('network.images.qrTitle')} /> : null}
        <MemberImageUpload userId={userId} imageType="payment_qr" label={t('network.images.newQr')} />
      </section>
      <section className="card stack" aria-labelledby="photo-title">
        <h2 id="photo-title">{t('network.images.photoTitle')}</h2>
        <MemberImage userId={userId} imageType="photo" available={member.has_photo} alt={t('network.images.photoTitle')} />
        <MemberImageUpload userId={userId} imageType="photo" label={t('network.images.newPhoto')} />
      </section>
      <section className="card stack" aria-labelledby="signature-title">
        <h2 id="signature-title">{t('network.images.signatureTitle')}</h2>
        <MemberImage userId={userId} imageType="signature" available={member.has_signature} alt={t('network.images.signatureTitle')} />
        <SignatureUpload userId={userId} />
      </section>
    </>
  );
}
