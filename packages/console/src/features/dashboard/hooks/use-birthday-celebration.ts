/** Opens the birthday celebration once per day when today (in India) is the retailer's birthday. */
import { useEffect } from 'react';
import type { UserProfile } from '@kisht/contract/auth';
import { formatDate, isBirthdayToday } from '@kisht/domain/format';
import { readConsoleKey, writeConsoleKey } from '../../../shared/storage.ts';
import { useAppDispatch } from '../../../shared/state/hooks.ts';
import { setBirthdayCelebration } from '../../../shared/state/main-slice.ts';

export function useBirthdayCelebration(profile: UserProfile | undefined): void {
  const dispatch = useAppDispatch();
  const birthday = profile?.birthday ?? null;
  useEffect(() => {
    if (!isBirthdayToday(birthday)) return;
    const today = formatDate(new Date());
    if (readConsoleKey('birthdayShownOn') === today) return;
    writeConsoleKey('birthdayShownOn', today);
    dispatch(setBirthdayCelebration(true));
  }, [birthday, dispatch]);
}
