/** Editing a member's details (one's own, or a member below): names, shop, email and city. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MemberProfile, UpdateMemberBody } from '@kisht/contract/network';
import { FormDialog } from '../../../shared/ui/form-dialog.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { toastKey } from '../../../shared/ui/toast-store.ts';
import { useUpdateMemberMutation } from '../api/network-api.ts';
import { isValidEmail } from '@kisht/domain/email';


export function EditMemberDialog({ member, onClose }: { member: MemberProfile; onClose: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({ first_name: member.first_name, last_name: member.last_name, shop_name: member.shop_name ?? '', email: member.email ?? '', city: member.city ?? '' });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof draft, string>>>({});
  const [update, { isLoading }] = useUpdateMemberMutation();
  const set = (field: keyof typeof draft) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  async function submit() {
    const found: typeof errors = {};
    if (!draft.first_name.trim()) found.first_name = t('common.required');
    if (!draft.last_name.trim()) found.last_name = t('common.required');
    if (draft.email.trim() && !isValidEmail(draft.email)) found.email = t('addCustomer.errors.email');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body: UpdateMemberBody = { user_id: member.id };
    if (draft.first_name.trim() !== member.first_name) body.first_name = draft.first_name.trim();
    if (draft.last_name.trim() !== member.last_name) body.last_name = draft.last_name.trim();
    // An emptied field clears it (null), a changed one is sent trimmed.
    if (draft.shop_name.trim() !== (member.shop_name ?? '')) body.shop_name = draft.shop_name.trim() || null;
    if (draft.city.trim() !== (member.city ?? '')) body.city = draft.city.trim() || null;
    if (draft.email.trim() !== (member.email ?? '')) body.email = draft.email.trim() || null;
    if (Object.keys(body).length === 1) {
      toastKey('info', 'customerEdit.noChanges');
      return onClose();
    }
    try {
      await update(body).unwrap();
      onClose();
    } catch {
      // The error toast says why; the dialog keeps what was typed.
    }
  }

  return (
    <FormDialog title={t('network.editTitle')} busy={isLoading} onClose={onClose} onSubmit={() => void submit()}>
      <TextField label={t('addCustomer.firstName')} maxLength={60} required value={draft.first_name} error={errors.first_name} onChange={(e) => set('first_name')(e.target.value)} />
      <TextField label={t('addCustomer.lastName')} maxLength={60} required value={draft.last_name} error={errors.last_name} onChange={(e) => set('last_name')(e.target.value)} />
      <TextField label={t('common.optionalLabel', { label: t('network.shopName') })} maxLength={80} value={draft.shop_name} onChange={(e) => set('shop_name')(e.target.value)} />
      <TextField label={t('common.optionalLabel', { label: t('addCustomer.email') })} type="email" maxLength={120} value={draft.email} error={errors.email} onChange={(e) => set('email')(e.target.value)} />
      <TextField label={t('common.optionalLabel', { label: t('addCustomer.city') })} maxLength={60} value={draft.city} onChange={(e) => set('city')(e.target.value)} />
    </FormDialog>
  );
}
