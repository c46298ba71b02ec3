/** Until when family care is in force after a renewal, as the server counts it: on from the last day, or from today once ended. */
import type { FamilyCare } from '@kisht/contract/familycare';
import { addDays } from '@kisht/domain/calendar';

export function renewedUntil(familyCare: Pick<FamilyCare, 'covered_until' | 'renewal_days'>, today: string): string {
  const from = familyCare.covered_until >= today ? familyCare.covered_until : addDays(today, -1);
  return addDays(from, familyCare.renewal_days);
}
