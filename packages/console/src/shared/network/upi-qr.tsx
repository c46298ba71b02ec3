/**
 * A retailer's UPI QR, drawn from its stored UPI ID with the builder the locked phones' QR uses: the counter,
 * the profile and the phones always pay the same address, whether it came from an uploaded QR or the operator.
 */
import { useMemo } from 'react';
import { upiPayLink } from '@kisht/domain/upi';
import { qrImage } from '../ui/qr-svg.ts';
import './upi-qr.css';

export function UpiQr({ vpa, name, alt, className }: { vpa: string; name: string; alt: string; className?: string }) {
  const image = useMemo(() => qrImage(upiPayLink({ vpa, name })), [vpa, name]);
  return <img src={image.dataUrl} alt={alt} className={className ? `upi-qr ${className}` : 'upi-qr'} />;
}
