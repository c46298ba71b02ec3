/**
 * A QR code as an SVG data URL, drawn synchronously from the qrcode library's module matrix (so the
 * screen derives it during render instead of waiting on an effect). Used by the EMM QR screen and the payment QR codes.
 */
import QRCode from 'qrcode';

/** Light modules around the code, as the QR standard asks (4). */
const QUIET_ZONE = 4;

export interface QrImage {
  /** Modules per side, without the quiet zone. */
  size: number;
  svg: string;
  dataUrl: string;
}

export function qrImage(text: string, errorCorrectionLevel: 'L' | 'M' = 'M'): QrImage {
  const { modules } = QRCode.create(text, { errorCorrectionLevel });
  const size = modules.size;
  let path = '';
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (modules.get(row, col)) path += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  const side = size + 2 * QUIET_ZONE;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" width="${side * 8}" height="${side * 8}" shape-rendering="crispEdges">` +
    `<rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`;
  return { size, svg, dataUrl: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` };
}
