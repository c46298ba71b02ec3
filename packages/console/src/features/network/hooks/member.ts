/** Small rules of the network screens: a member's name and address, and which switches a granter may turn on. */
import { LOCK_ACCESS_KEYS, USER_ACCESS_KEYS } from '@kisht/domain/constants';
import { ROUTES } from '../../../shared/routes.ts';

export const memberName = (m: { first_name: string; last_name: string }) => `${m.first_name} ${m.last_name}`.trim();

/** retailer_profile takes the member's id as a query parameter; without one it is the caller's own profile. */
export const memberPath = (userId?: number) => (userId === undefined ? ROUTES.retailer_profile : `${ROUTES.retailer_profile}?user_id=${userId}`);

/** top_up_history of a member below the caller, or the caller's own. */
export const historyPath = (userId?: number) => (userId === undefined ? ROUTES.top_up_history : `${ROUTES.top_up_history}?user_id=${userId}`);

export type SwitchGroup = 'user_access' | 'lock_access';
export const SWITCH_GROUPS: ReadonlyArray<{ group: SwitchGroup; keys: readonly string[] }> = [
  { group: 'user_access', keys: USER_ACCESS_KEYS },
  { group: 'lock_access', keys: LOCK_ACCESS_KEYS },
];

/**
 * Whether the granter may change a member's switch: turning one off is always allowed (it goes off below too);
 * turning one on only if the granter holds it itself. The server applies the same rule (ACCESS_NOT_HELD).
 */
export function canToggle(currentlyOn: boolean, granterHolds: boolean): boolean {
  return currentlyOn || granterHolds;
}

/**
 * A transfer's id, made once when its dialog opens: a retry after a lost answer sends the same id and the
 * server moves keys once. crypto.randomUUID needs a secure context, which a WebView on a LAN address is not.
 */
export function newTransferId(random: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer> = (b) => crypto.getRandomValues(b)): string {
  const b = random(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
