/**
 * Copying an anti-hacking code (spec section 5): no code says "Code not found", a copy says "Code Copied
 * Successfully.". The code goes out in its four groups of four, as the screen shows it and as the security app
 * accepts it.
 */
import { formatActivationCode } from '@kisht/domain/activation-code';
import { copyCode } from '../../../shared/ui/copy-code.ts';

export function copyActivationCode(code: string | null | undefined): Promise<void> {
  return copyCode(code ? formatActivationCode(code) : null, { notFound: 'antihacking.code.notFound', copied: 'antihacking.code.copied', failed: 'antihacking.code.copyFailed' });
}
