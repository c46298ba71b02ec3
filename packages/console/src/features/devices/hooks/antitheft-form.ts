/** The anti-theft settings form: its draft, its checks and the request it sends. */
import type { Antitheft, AntitheftSettingsBody } from '@kisht/contract/antitheft';
import { LOST_MESSAGE_MAX } from '@kisht/contract/antitheft';
import { addDays } from '@kisht/domain/calendar';
import { isValidLocalMobile, withCountryPrefix } from '@kisht/domain/mobile';

export interface AntitheftDraft {
  lostModeOnSimChange: boolean;
  message: string;
  /** The ten local digits, or empty for the shop's number. */
  contact: string;
}

export type AntitheftErrors = Partial<Record<'message' | 'contact', string>>;

export function draftOf(settings: Antitheft): AntitheftDraft {
  return {
    lostModeOnSimChange: settings.lost_mode_on_sim_change,
    message: settings.message ?? '',
    contact: settings.contact_mobile ? settings.contact_mobile.replace(/^\+91/, '') : '',
  };
}

/** Translation keys of the problems, by field. */
export function validateAntitheft(draft: AntitheftDraft): AntitheftErrors {
  const errors: AntitheftErrors = {};
  if (draft.message.trim().length > LOST_MESSAGE_MAX) errors.message = 'antitheft.messageHint';
  if (draft.contact !== '' && !isValidLocalMobile(draft.contact)) errors.contact = 'errors.INVALID_MOBILE';
  return errors;
}

export function antitheftRequest(customerId: number, draft: AntitheftDraft): AntitheftSettingsBody {
  const message = draft.message.trim().replace(/\s+/g, ' ');
  return {
    customer_id: customerId,
    lost_mode_on_sim_change: draft.lostModeOnSimChange,
    message: message === '' ? null : message,
    contact_mobile: draft.contact === '' ? null : withCountryPrefix(draft.contact),
  };
}

/** The last day in force after a renewal (as the server counts it): on from the last day, or from today once ended. */
export function renewedUntil(settings: Pick<Antitheft, 'covered_until' | 'renewal_days'>, today: string): string {
  const from = settings.covered_until >= today ? settings.covered_until : addDays(today, -1);
  return addDays(from, settings.renewal_days);
}
