/**
 * A new offer: the picture (optional; shrunk on the phone before it is uploaded, as soon as it is picked), the title,
 * the text and an optional https link, who gets it, now or at a time (India time), with a live preview of the
 * notification a customer's phone shows and the rules every offer goes out under. Checked here first in the
 * user's language; a confirmation names how many customers it goes to; the server's refusals show as its toast and
 * on the field they concern.
 */
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Campaign } from '@kisht/contract/ads';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { TextAreaField } from '../../../shared/ui/text-area-field.tsx';
import { PhotoInput, type PickedImage } from '../../../shared/ui/photo-input.tsx';
import { ConfirmDialog } from '../../../shared/ui/confirm-dialog.tsx';
import { isApiFailure, isOffline } from '../../../shared/api/api-failure.ts';
import { mergePages } from '../../../shared/api/paging.ts';
import { useGetDetailsQuery } from '../../../shared/auth/session-api.ts';
import { useGetOrgAppConfigQuery } from '../../../shared/config/config-api.ts';
import { useDebouncedValue } from '../../../shared/use-debounced-value.ts';
import { useObjectUrl } from '../../../shared/use-object-url.ts';
import { isoToIstInput } from '../../../shared/ist-datetime.ts';
import { searchText } from '../../../shared/list-search.ts';
import { useCreateCampaignMutation, useGetAdSettingsQuery, useGetAudienceCustomersInfiniteQuery, useUploadCreativeMutation, type AudienceQuery } from '../api/ads-api.ts';
import {
  campaignBody,
  campaignErrorsFromServer,
  emptyCampaignDraft,
  formatHour,
  istSendAt,
  LINK_MAX,
  nextWholeHour,
  TEXT_MAX,
  TITLE_MAX,
  validateCampaign,
  waitsForSendingHours,
  type CampaignDraft,
  type CampaignErrors,
  type FieldError,
} from '../hooks/campaign-form.ts';
import { AudienceFields, type AudienceList } from './audience-fields.tsx';
import { OfferPreview } from './offer-preview.tsx';
import { AdRules } from './ad-rules.tsx';

/** The customer list's query for the audience: everyone, or the list's filters (a search as settled). */
function audienceQuery(draft: CampaignDraft, settledSearch: string): AudienceQuery {
  if (draft.audience === 'all') return { status: 'all' };
  const search = searchText(settledSearch);
  return { status: draft.status, ...(search ? { search } : {}), ...(draft.lock !== 'all' ? { lock_status: Number(draft.lock) } : {}) };
}

export function CampaignForm({ onCreated }: { onCreated: (campaign: Campaign) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<CampaignDraft>(emptyCampaignDraft);
  const [errors, setErrors] = useState<CampaignErrors>({});
  const [picture, setPicture] = useState<PickedImage | null>(null);
  const [confirming, setConfirming] = useState(false);
  // One key per offer: a second tap, or a retry after a lost answer, makes no second campaign.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const form = useRef<HTMLFormElement>(null);
  const latestPick = useRef<PickedImage | null>(null);
  const [upload, { isLoading: uploading }] = useUploadCreativeMutation();
  const [create, { isLoading: creating }] = useCreateCampaignMutation();
  const { data: settings } = useGetAdSettingsQuery();
  const { data: profile } = useGetDetailsQuery();
  const { data: org } = useGetOrgAppConfigQuery();
  const shopName = profile?.shop_name || org?.company_name || org?.name || t('common.appName');
  const pictureUrl = useObjectUrl(picture?.blob);

  const settledSearch = useDebouncedValue(draft.search);
  // currentData: after a filter change the old filter's count must not show while the new one loads.
  const candidates = useGetAudienceCustomersInfiniteQuery(audienceQuery(draft, settledSearch));
  const { items, total, totalText } = useMemo(() => mergePages(candidates.currentData?.pages, (c) => c.id), [candidates.currentData]);
  const list: AudienceList = {
    items,
    total,
    totalText,
    loading: !candidates.currentData && candidates.isFetching,
    failed: candidates.isError && !candidates.currentData ? (isOffline(candidates.error) ? t('ads.offline') : t('ads.audience.loadError')) : null,
    retry: () => void candidates.refetch(),
    hasMore: candidates.hasNextPage,
    loadingMore: candidates.isFetchingNextPage,
    loadMore: () => void candidates.fetchNextPage(),
  };
  const count = draft.audience === 'picked' ? draft.picked.length : total;
  const countText = draft.audience === 'picked' ? String(count) : totalText;

  const say = (error: FieldError | undefined): string | null => (!error ? null : 'text' in error ? error.text : t(error.key, error.vars));
  const errorOf = (field: keyof CampaignErrors) => say(errors[field]);

  function update(patch: Partial<CampaignDraft>) {
    setDraft((current) => ({ ...current, ...patch }));
    // An edited field's error goes until the next submit; the audience's filters and picks are the audience.
    setErrors((current) => {
      const next = { ...current };
      for (const field of Object.keys(patch)) {
        const target = field === 'search' || field === 'status' || field === 'lock' || field === 'picked' ? 'audience' : field === 'when' ? 'sendAt' : field;
        delete next[target as keyof CampaignErrors];
      }
      return next;
    });
  }

  function showErrors(found: CampaignErrors) {
    setErrors(found);
    requestAnimationFrame(() => {
      const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
      if (invalid) invalid.focus();
      else form.current?.querySelector('.field__error')?.scrollIntoView({ block: 'center' });
    });
  }

  async function pick(image: PickedImage | null) {
    latestPick.current = image;
    setPicture(image);
    update({ creativeId: null });
    if (!image) return;
    try {
      const stored = await upload({ file: image.blob, fileName: image.fileName }).unwrap();
      // A picture replaced while it uploaded is not the offer's any more.
      if (latestPick.current === image) update({ creativeId: stored.creative_id });
    } catch (failure) {
      if (latestPick.current !== image) return;
      // Refused (type, size, unreadable): the toast says why, and so does the field; the picture goes.
      latestPick.current = null;
      setPicture(null);
      if (isApiFailure(failure)) setErrors((current) => ({ ...current, creativeId: { text: failure.message } }));
    }
  }

  function chooseWhen(when: CampaignDraft['when']) {
    // Scheduling starts from the next whole hour in India, a time that is always ahead.
    update(when === 'later' && !draft.sendAt ? { when, sendAt: isoToIstInput(nextWholeHour(new Date())) } : { when });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateCampaign(draft, new Date());
    // Everyone, or a filter, that holds nobody: nothing would go out.
    if (!found.audience && draft.audience !== 'picked' && candidates.currentData && total === 0) found.audience = { key: 'ads.form.errors.noAudience' };
    if (Object.keys(found).length > 0) return showErrors(found);
    setErrors({});
    setConfirming(true);
  }

  async function send() {
    setConfirming(false);
    try {
      // The server's message (CAMPAIGN_CREATED) is the success toast.
      // The search as the count above was read for it, so the customers confirmed are the ones sent to.
      onCreated(await create(campaignBody({ ...draft, search: settledSearch }, idempotencyKey)).unwrap());
    } catch (failure) {
      if (isApiFailure(failure)) showErrors(campaignErrorsFromServer(failure));
    }
  }

  const sendAt = istSendAt(draft);
  const now = new Date();
  const waits = settings && (draft.when === 'now' ? waitsForSendingHours(now, settings.send_hours) : sendAt ? waitsForSendingHours(sendAt, settings.send_hours) : false);

  return (
    <form ref={form} className="form ads-form" noValidate onSubmit={submit}>
      <section className="card stack" aria-labelledby="ads-offer-title">
        <h2 id="ads-offer-title">{t('ads.form.offer')}</h2>
        <PhotoInput label={t('common.optionalLabel', { label: t('ads.form.picture') })} value={picture} camera={false} error={errorOf('creativeId')} onChange={(image) => void pick(image)} />
        <p className="muted small" aria-live="polite">
          {uploading ? t('ads.form.uploading') : ''}
        </p>
        <TextField
          label={t('ads.form.title')}
          autoComplete="off"
          maxLength={TITLE_MAX}
          value={draft.title}
          error={errorOf('title')}
          hint={t('ads.form.left', { count: TITLE_MAX - draft.title.length })}
          onChange={(event) => update({ title: event.target.value })}
        />
        <TextAreaField
          label={t('ads.form.text')}
          maxLength={TEXT_MAX}
          rows={4}
          value={draft.text}
          error={errorOf('text')}
          hint={t('ads.form.left', { count: TEXT_MAX - draft.text.length })}
          onChange={(event) => update({ text: event.target.value })}
        />
        <TextField
          label={t('common.optionalLabel', { label: t('ads.form.link') })}
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://"
          maxLength={LINK_MAX}
          value={draft.link}
          error={errorOf('link')}
          hint={t('ads.form.linkHint')}
          onChange={(event) => update({ link: event.target.value })}
        />
      </section>

      <OfferPreview title={draft.title} text={draft.text} link={draft.link} imageUrl={pictureUrl} shopName={shopName} />

      <AudienceFields draft={draft} onChange={update} list={list} error={errorOf('audience')} />

      <section className="card" aria-labelledby="ads-when-title">
        <h2 id="ads-when-title">{t('ads.when.title')}</h2>
        <fieldset className="ads-choices">
          <legend className="visually-hidden">{t('ads.when.title')}</legend>
          <label className="ads-choice">
            <input type="radio" name="ads-when" checked={draft.when === 'now'} onChange={() => chooseWhen('now')} /> {t('ads.when.now')}
          </label>
          <label className="ads-choice">
            <input type="radio" name="ads-when" checked={draft.when === 'later'} onChange={() => chooseWhen('later')} /> {t('ads.when.later')}
          </label>
        </fieldset>
        {draft.when === 'later' ? (
          <TextField
            label={t('ads.when.at')}
            type="datetime-local"
            min={isoToIstInput(now)}
            value={draft.sendAt}
            error={errorOf('sendAt')}
            hint={t('ads.when.indiaTime')}
            onChange={(event) => update({ sendAt: event.target.value })}
          />
        ) : null}
        {waits && settings ? <p className="ads-note small">{t('ads.when.waits', { time: formatHour(settings.send_hours.from) })}</p> : null}
      </section>

      <AdRules />

      <p className="muted small" aria-live="polite">
        {creating ? t('ads.form.sending') : ''}
      </p>
      <button type="submit" className="button button--primary button--block" disabled={creating || uploading}>
        {draft.when === 'now' ? t('ads.form.sendNow') : t('ads.form.schedule')}
      </button>
      <ConfirmDialog
        open={confirming}
        title={draft.when === 'now' ? t('ads.confirm.titleNow') : t('ads.confirm.titleLater')}
        message={t('ads.confirm.message', { count, replace: { count: countText } })}
        confirmLabel={draft.when === 'now' ? t('ads.form.sendNow') : t('ads.form.schedule')}
        busy={creating}
        onConfirm={() => void send()}
        onCancel={() => setConfirming(false)}
      />
    </form>
  );
}
