/** A stored customer document image (fetched with the session headers), or a placeholder. */
import { useTranslation } from 'react-i18next';
import { useGetCustomerDocumentQuery, type DocumentType } from '../documents/documents-api.ts';
import { Skeleton } from './skeleton.tsx';

export interface DocumentImageProps {
  customerId: number;
  documentType: DocumentType;
  /** The profile says the document exists (has_photo ...); otherwise nothing is fetched. */
  available: boolean;
  alt: string;
  className?: string;
  placeholderHeight?: number;
}

export function DocumentImage({ customerId, documentType, available, alt, className, placeholderHeight = 120 }: DocumentImageProps) {
  const { data: url, isLoading, isError } = useGetCustomerDocumentQuery({ customerId, documentType }, { skip: !available });
  return <StoredImage url={url} available={available} isLoading={isLoading} isError={isError} alt={alt} className={className} placeholderHeight={placeholderHeight} />;
}

/** A stored image fetched elsewhere (a customer's document, a retailer's photo or QR): the image, a placeholder, or why not. */
export function StoredImage({ url, available, isLoading, isError, alt, className, placeholderHeight = 120 }: {
  url: string | undefined;
  available: boolean;
  isLoading: boolean;
  isError: boolean;
  alt: string;
  className?: string | undefined;
  placeholderHeight?: number;
}) {
  const { t } = useTranslation();
  if (!available) return <span className={`document-image document-image--empty ${className ?? ''}`}>{t('documents.notUploaded')}</span>;
  if (isLoading) return <Skeleton height={placeholderHeight} />;
  if (isError || !url) return <span className={`document-image document-image--empty ${className ?? ''}`}>{t('documents.loadError')}</span>;
  return <img className={`document-image ${className ?? ''}`} src={url} alt={alt} />;
}
