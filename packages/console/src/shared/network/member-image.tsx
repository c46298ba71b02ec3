/**
 * A retailer's stored image (photo, signature or payment QR) and the picker that replaces it: on the retailer
 * profile and on the payment QR screen. A refused payment QR (not a UPI QR) says why in its error toast.
 */
import type { MemberImageType } from '@kisht/contract/network';
import { PhotoUpload } from '../ui/photo-upload.tsx';
import { StoredImage } from '../ui/document-image.tsx';
import { useGetMemberImageQuery, useUploadMemberImageMutation } from './member-api.ts';

export function MemberImage({ userId, imageType, available, alt, className }: { userId?: number | undefined; imageType: MemberImageType; available: boolean; alt: string; className?: string }) {
  const { data: url, isLoading, isError } = useGetMemberImageQuery({ ...(userId !== undefined ? { userId } : {}), imageType }, { skip: !available });
  return <StoredImage url={url} available={available} isLoading={isLoading} isError={isError} alt={alt} className={className} />;
}

export function MemberImageUpload({ userId, imageType, label }: { userId?: number | undefined; imageType: 'photo' | 'payment_qr'; label: string }) {
  const [upload, { isLoading }] = useUploadMemberImageMutation();
  return (
    <PhotoUpload
      label={label}
      camera={imageType === 'photo'}
      busy={isLoading}
      upload={(picked) => upload({ ...(userId !== undefined ? { userId } : {}), imageType, file: picked.blob, fileName: picked.fileName }).unwrap()}
    />
  );
}
