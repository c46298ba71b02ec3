/**
 * add_retailer: a retailer adds a retailer (a shop of its network) or a mini-retailer (a counter of its own
 * shop) below it, with switches no wider than its own; the new member signs in with an OTP like anyone. With
 * the bulk_retailer switch, many from a CSV file (bulk-add.tsx).
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { COUNTRY_PREFIX } from '@kisht/domain/constants';
import { isValidLocalMobile } from '@kisht/domain/mobile';
import type { AddMemberBody } from '@kisht/contract/network';
import { Page } from '../../../shared/ui/page.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { selectAccessConfig, selectUserAccessConfig } from '../../../shared/config/config-api.ts';
import { useAppSelector } from '../../../shared/state/hooks.ts';
import { useGetCitiesQuery, useGetCountriesQuery, useGetStatesQuery } from '../../../shared/catalogue/catalogue-api.ts';
import { useGetDetailsQuery } from '../../../shared/auth/session-api.ts';
import { useAddMemberMutation, useUploadNewMemberPhotoMutation } from '../api/network-api.ts';
import { PhotoInput, type PickedImage } from '../../../shared/ui/photo-input.tsx';
import { toastKey } from '../../../shared/ui/toast-store.ts';
import { memberPath } from '../hooks/member.ts';
import { SwitchList, type SwitchValues } from './switch-list.tsx';
import { BulkAdd } from './bulk-add.tsx';
import './network.css';
import { isValidEmail } from '@kisht/domain/email';

type Field = 'first_name' | 'last_name' | 'mobile' | 'email' | 'shop_name';

export function AddRetailerScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: me } = useGetDetailsQuery();
  const granter: SwitchValues = { user_access: useAppSelector(selectUserAccessConfig), lock_access: useAppSelector(selectAccessConfig) };
  const [draft, setDraft] = useState({ user_type: 'miniretailer' as AddMemberBody['user_type'], first_name: '', last_name: '', shop_name: '', mobile: '', email: '' });
  const [stateId, setStateId] = useState<number | null>(null);
  const [city, setCity] = useState('');
  // The new member's switches: the caller's own (as they load) except those changed here.
  const [changed, setChanged] = useState<SwitchValues>({ user_access: {}, lock_access: {} });
  const switches: SwitchValues = {
    user_access: { ...granter.user_access, ...changed.user_access },
    lock_access: { ...granter.lock_access, ...changed.lock_access },
  };
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [add, { isLoading }] = useAddMemberMutation();
  const [photo, setPhoto] = useState<PickedImage | null>(null);
  const [uploadPhoto, { isLoading: uploading }] = useUploadNewMemberPhotoMutation();

  const { data: countries } = useGetCountriesQuery();
  const countryId = countries?.[0]?.id;
  const { data: states } = useGetStatesQuery(countryId ?? 0, { skip: countryId === undefined });
  const { data: cities } = useGetCitiesQuery(stateId ?? 0, { skip: stateId === null });

  if (me && me.user_type !== 'retailer') {
    return (
      <Page title={t('network.addTitle')}>
        <p className="card">{t('network.miniCannotAdd')}</p>
      </Page>
    );
  }

  const set = (field: keyof typeof draft) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  function check(): Partial<Record<Field, string>> {
    const found: Partial<Record<Field, string>> = {};
    if (!draft.first_name.trim()) found.first_name = t('common.required');
    if (!draft.last_name.trim()) found.last_name = t('common.required');
    if (!draft.mobile) found.mobile = t('common.required');
    else if (!isValidLocalMobile(draft.mobile)) found.mobile = t('addCustomer.errors.mobile');
    if (draft.email.trim() && !isValidEmail(draft.email)) found.email = t('addCustomer.errors.email');
    return found;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body: AddMemberBody = {
      user_type: draft.user_type,
      first_name: draft.first_name.trim(),
      last_name: draft.last_name.trim(),
      mobile: `${COUNTRY_PREFIX}${draft.mobile}`,
      user_access: switches.user_access,
      lock_access: switches.lock_access,
    };
    if (draft.shop_name.trim()) body.shop_name = draft.shop_name.trim();
    if (draft.email.trim()) body.email = draft.email.trim();
    if (city) body.city = city;
    try {
      const added = await add(body).unwrap();
      if (photo) {
        // The member exists either way; a photo that did not go up can be added again on the profile.
        await uploadPhoto({ userId: added.id, file: photo.blob, fileName: photo.fileName })
          .unwrap()
          .catch(() => toastKey('warning', 'network.photoNotSaved'));
      }
      await navigate(memberPath(added.id), { replace: true });
    } catch (error) {
      if (!isApiFailure(error)) return;
      if (error.code === 'MOBILE_TAKEN') setErrors({ mobile: error.message });
      else if (error.code === 'VALIDATION_FAILED' && error.details) {
        const next: Partial<Record<Field, string>> = {};
        for (const d of error.details) if (d.field in draft) next[d.field as Field] = t('validation.invalid');
        setErrors(next);
      }
    }
  }

  return (
    <Page title={t('network.addTitle')}>
      <form className="form card" noValidate onSubmit={(e) => void submit(e)}>
        <SelectField label={t('network.memberType')} value={draft.user_type} onChange={(e) => set('user_type')(e.target.value)} hint={t(`network.typeHint.${draft.user_type}`)}>
          <option value="miniretailer">{t('network.type.miniretailer')}</option>
          <option value="retailer">{t('network.type.retailer')}</option>
        </SelectField>
        <TextField label={t('addCustomer.firstName')} autoComplete="off" maxLength={60} required value={draft.first_name} error={errors.first_name} onChange={(e) => set('first_name')(e.target.value)} />
        <TextField label={t('addCustomer.lastName')} autoComplete="off" maxLength={60} required value={draft.last_name} error={errors.last_name} onChange={(e) => set('last_name')(e.target.value)} />
        <TextField label={t('common.optionalLabel', { label: t('network.shopName') })} autoComplete="off" maxLength={80} value={draft.shop_name} onChange={(e) => set('shop_name')(e.target.value)} />
        <TextField
          label={t('addCustomer.mobile')}
          prefix={COUNTRY_PREFIX}
          type="tel"
          inputMode="numeric"
          autoComplete="off"
          maxLength={10}
          required
          value={draft.mobile}
          error={errors.mobile}
          hint={t('network.mobileHint')}
          onChange={(e) => set('mobile')(e.target.value.replace(/\D/g, '').slice(0, 10))}
        />
        <TextField label={t('common.optionalLabel', { label: t('addCustomer.email') })} type="email" autoComplete="off" maxLength={120} value={draft.email} error={errors.email} onChange={(e) => set('email')(e.target.value)} />
        <SelectField
          label={t('common.optionalLabel', { label: t('addCustomer.state') })}
          value={stateId ?? ''}
          onChange={(e) => {
            setStateId(e.target.value ? Number(e.target.value) : null);
            setCity('');
          }}
        >
          <option value="">{t('common.choose')}</option>
          {(states ?? []).map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('common.optionalLabel', { label: t('addCustomer.city') })} value={city} disabled={stateId === null} hint={stateId === null ? t('addCustomer.chooseStateFirst') : undefined} onChange={(e) => setCity(e.target.value)}>
          <option value="">{t('common.choose')}</option>
          {(cities ?? []).map((c) => (
            <option key={c.id} value={c.name}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <PhotoInput label={t('common.optionalLabel', { label: t('network.images.photoTitle') })} value={photo} onChange={setPhoto} />
        <SwitchList
          values={switches}
          granter={granter}
          onChange={(group, key, on) => setChanged((s) => ({ ...s, [group]: { ...s[group], [key]: on ? '1' : '0' } }))}
        />
        <button type="submit" className="button button--primary" disabled={isLoading || uploading}>
          {t('network.addSubmit')}
        </button>
      </form>
      {granter.user_access.bulk_retailer === '1' ? <BulkAdd /> : null}
    </Page>
  );
}
