import { describe, expect, it } from 'vitest';
import QRCode from 'qrcode';
import { qrImage } from './qr-svg.ts';

/** The dark modules of the drawn SVG, read back from its path. */
function darkModules(svg: string): Set<string> {
  const d = /<path fill="#000" d="([^"]*)"/.exec(svg)![1]!;
  return new Set([...d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map((m) => `${Number(m[1]) - 4},${Number(m[2]) - 4}`));
}

/** A finder pattern (7x7 ring with a 3x3 centre) with its top-left module at x, y. */
function hasFinder(dark: Set<string>, x: number, y: number): boolean {
  for (let dy = 0; dy < 7; dy++) {
    for (let dx = 0; dx < 7; dx++) {
      const ring = dx === 0 || dy === 0 || dx === 6 || dy === 6;
      const centre = dx >= 2 && dx <= 4 && dy >= 2 && dy <= 4;
      if (dark.has(`${x + dx},${y + dy}`) !== (ring || centre)) return false;
    }
  }
  return true;
}

// About the size of the server's provisioning payload.
const payload = JSON.stringify({
  'android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME': 'in.kisht.agent/.AdminReceiver',
  'android.app.extra.PROVISIONING_DEVICE_ADMIN_PACKAGE_DOWNLOAD_LOCATION': 'https://kisht.example/agent/kisht-agent-1.0.0.apk',
  'android.app.extra.PROVISIONING_DEVICE_ADMIN_PACKAGE_CHECKSUM': 'x'.repeat(43),
  'android.app.extra.PROVISIONING_LEAVE_ALL_SYSTEM_APPS_ENABLED': true,
  'android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE': { 'kisht.server': 'https://kisht.example', 'kisht.token': 'y'.repeat(43), 'kisht.v': '1' },
});

describe('qrImage', () => {
  it('draws exactly the modules of the code, upright, with finder patterns in three corners', () => {
    const image = qrImage(payload);
    const { modules } = QRCode.create(payload, { errorCorrectionLevel: 'M' });
    expect(image.size).toBe(modules.size);
    const dark = darkModules(image.svg);
    let count = 0;
    const wrong: string[] = [];
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) {
        if (modules.get(row, col)) count++;
        if (dark.has(`${col},${row}`) !== Boolean(modules.get(row, col))) wrong.push(`${col},${row}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(dark.size).toBe(count);
    const n = image.size;
    expect([hasFinder(dark, 0, 0), hasFinder(dark, n - 7, 0), hasFinder(dark, 0, n - 7), hasFinder(dark, n - 7, n - 7)]).toEqual([true, true, true, false]);
  });

  it('fits a ~500 character payload in a version a phone camera reads, as an SVG data URL', () => {
    expect(payload.length).toBeGreaterThan(450);
    const image = qrImage(payload);
    expect(image.size).toBeLessThanOrEqual(97); // version 20 or lower
    expect(image.dataUrl.startsWith('data:image/svg+xml;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(image.dataUrl.split(',')[1]!)).toBe(image.svg);
  });
});
