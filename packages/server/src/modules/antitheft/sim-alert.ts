/**
 * What a SIM change on an anti-theft phone sets off (decision 022): a text to the owner's alternate number and to
 * the retailer, in the customer's language, naming the SIMs now in it where the phone knows them; and lost mode, when the
 * owner chose it, with the owner's message and number to call.
 */
import { isAntiTheftProduct } from '@kisht/domain/device-actions';
import { FALLBACK_LANGUAGE, isLanguage } from '@kisht/domain/constants';
import { formatDateTime, todayInIndia } from '@kisht/domain/format';
import type { Sim } from '@kisht/protocol/messages';
import { translate } from '../../shared/messages.ts';
import type { SimAlertTarget } from './antitheft.repository.ts';

export interface SimAlert {
  messages: Array<{ to: string; body: string }>;
  /** Lost mode's payload when the change turns it on, or null. */
  lostMode: { on: true; message: string | null; phone: string | null } | null;
}

/** How the alert names a SIM: its operator and number, or the end of its ICCID when the phone knows neither. */
function describeSim(sim: Sim): string {
  const known = [sim.operator, sim.number].filter((part): part is string => !!part && part.trim() !== '').join(' ');
  if (known) return known;
  return sim.iccid ? `ICCID …${sim.iccid.slice(-4)}` : `SIM ${sim.slot + 1}`;
}

/** The alert for a SIM change, or null when the customer's product has no anti-theft or its cover had ended that day. */
export function simAlertFor(target: SimAlertTarget, oldSims: Sim[], newSims: Sim[], at: string): SimAlert | null {
  if (!isAntiTheftProduct(target.product_type)) return null;
  const day = Number.isNaN(Date.parse(at)) ? todayInIndia() : todayInIndia(new Date(at));
  if (day > target.covered_until) return null;
  const lng = isLanguage(target.language) ? target.language : FALLBACK_LANGUAGE;
  // Every SIM now in the phone (a dual-SIM phone that lost one still has the other), or none.
  const sim = newSims.length ? newSims.map(describeSim).join(', ') : translate(lng, 'antitheft.sms.noSim', 'no SIM');
  const phone = [target.device_brand, target.device_model].filter(Boolean).join(' ') || translate(lng, 'antitheft.sms.thePhone', 'the phone');
  const lostMode = target.lost_mode_on_sim_change ? { on: true as const, message: target.message, phone: target.contact_mobile ?? target.retailer_mobile } : null;
  const vars = { phone, imei: target.imei1, time: formatDateTime(at), sim };
  const body = lostMode
    ? translate(lng, 'antitheft.sms.simChangedLost', `Alert: the SIM in ${phone} (IMEI ${target.imei1}) was changed at ${vars.time}. SIMs in it now: ${sim}. Lost mode is on.`, vars)
    : translate(lng, 'antitheft.sms.simChanged', `Alert: the SIM in ${phone} (IMEI ${target.imei1}) was changed at ${vars.time}. SIMs in it now: ${sim}.`, vars);
  const recipients = [...new Set([target.alt_mobile, target.retailer_mobile].filter((m): m is string => !!m))];
  return { messages: recipients.map((to) => ({ to, body })), lostMode };
}
