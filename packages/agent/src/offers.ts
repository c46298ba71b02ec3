/**
 * Offers from the shop (revision 6): whether the phone may show one, reading the `offer` payload, and the "Offers"
 * notification channel the phone keeps. Pure functions over the stored state; the agent sends the acks.
 */
import type { OfferRefusal } from '@kisht/protocol/messages';
import type { OfferNotification, PhoneState } from './state.ts';

/** How many offers the channel keeps; older ones go, as a phone's notification shade drops its oldest. */
export const OFFERS_KEPT = 20;

/** What a valid `offer` payload carries, the picture reduced to a path on the phone's own server. */
export type OfferContent = Pick<OfferNotification, 'campaignId' | 'title' | 'text' | 'link' | 'image'>;

/**
 * The lock screen (for any reason: the server's lock, a lock code, the self-lock) or lost mode is up. Offers are
 * never shown on or over it, and none can be opened while it is.
 */
export function lockScreenUp(state: PhoneState): boolean {
  return state.screen.locked || state.selfLocked || state.screen.lostMode.on;
}

/** Why the phone will not show an offer now, or null when it will. */
export function offerRefusal(state: PhoneState): OfferRefusal | null {
  if (lockScreenUp(state)) return 'locked';
  if (state.offersOptOut === true) return 'opted_out';
  return null;
}

/**
 * The picture's path on the phone's server, or null. The phone sends its own credentials for the picture, so it
 * fetches only from its own server: a path, or a full URL under the server's address; anything else is shown
 * without the picture.
 */
export function offerImagePath(image: unknown, server: string | null): string | null {
  if (typeof image !== 'string' || !server || /[\s\\]/.test(image)) return null;
  if (image.startsWith('/') && !image.startsWith('//')) return image;
  const root = server.replace(/\/+$/, '');
  return image.startsWith(`${root}/`) ? image.slice(root.length) : null;
}

/** The offer a payload describes, or null when it is malformed (the command then fails with `bad_payload`). */
export function readOffer(payload: Record<string, unknown>, server: string | null): OfferContent | null {
  const { campaign_id: campaignId, title, text, link } = payload;
  if (typeof campaignId !== 'number' || !Number.isSafeInteger(campaignId) || campaignId < 1) return null;
  if (typeof title !== 'string' || title.trim() === '' || typeof text !== 'string') return null;
  // The phone opens only https links: anything else is not a link it would follow.
  if (link !== null && link !== undefined && (typeof link !== 'string' || !/^https:\/\/\S+$/.test(link))) return null;
  return { campaignId, title, text, link: typeof link === 'string' ? link : null, image: offerImagePath(payload.image, server) };
}

/**
 * The channel with `offer` on top. An earlier offer of the same campaign is replaced rather than shown twice (a
 * notification of the same tag does the same on Android), and the channel keeps the newest OFFERS_KEPT.
 */
export function withOffer(offers: OfferNotification[] | undefined, offer: OfferNotification): OfferNotification[] {
  return [offer, ...(offers ?? []).filter((o) => o.campaignId !== offer.campaignId)].slice(0, OFFERS_KEPT);
}

/** The offer a customer opens: by campaign id (a number) or by the id of the command that brought it. */
export function findOffer(offers: OfferNotification[] | undefined, ref: number | string): OfferNotification | undefined {
  return (offers ?? []).find((o) => (typeof ref === 'number' ? o.campaignId === ref : o.commandId === ref));
}
