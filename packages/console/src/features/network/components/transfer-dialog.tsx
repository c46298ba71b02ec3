/** Send keys to a child, request keys from one's parent, or return unused keys up: product type, quantity, note. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BalanceType, TransferBody } from '@kisht/contract/network';
import { FormDialog } from '../../../shared/ui/form-dialog.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { useTransferKeysMutation } from '../api/network-api.ts';
import { newTransferId } from '../hooks/member.ts';

export type TransferKind = TransferBody['kind'];

export function TransferDialog({ kind, toUserId, types, onClose }: { kind: TransferKind; toUserId?: number; types: BalanceType[]; onClose: () => void }) {
  const { t } = useTranslation();
  // One id for this dialog: pressing the button again after a lost answer moves the keys once.
  const [id] = useState(newTransferId);
  const [productType, setProductType] = useState(types[0]?.product_type ?? 0);
  const [quantity, setQuantity] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [transfer, { isLoading }] = useTransferKeysMutation();
  const chosen = types.find((type) => type.product_type === productType);

  async function submit() {
    const count = Number(quantity);
    if (!/^\d{1,6}$/.test(quantity) || count < 1 || count > 100_000) return setError(t('network.quantityInvalid'));
    if (kind !== 'request' && chosen && count > chosen.balance) return setError(t('errors.NOT_ENOUGH_KEYS'));
    try {
      await transfer({ id, kind, product_type: productType, quantity: count, ...(toUserId !== undefined ? { to_user_id: toUserId } : {}), ...(note.trim() ? { note: note.trim() } : {}) }).unwrap();
      onClose();
    } catch {
      // The error toast says why; the dialog stays open to change the quantity or try again.
    }
  }

  return (
    <FormDialog title={t(`network.transfer.${kind}.title`)} busy={isLoading} onClose={onClose} onSubmit={() => void submit()} submitLabel={t(`network.transfer.${kind}.submit`)}>
      <SelectField label={t('network.productType')} value={productType} onChange={(e) => setProductType(Number(e.target.value))}>
        {types.map((type) => (
          <option key={type.product_type} value={type.product_type}>
            {kind === 'request' ? type.name : t('network.typeWithBalance', { name: type.name, count: type.balance })}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('network.quantity')}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        maxLength={6}
        required
        value={quantity}
        error={error}
        onChange={(e) => {
          setQuantity(e.target.value.replace(/\D/g, ''));
          setError(null);
        }}
      />
      <TextField label={t('common.optionalLabel', { label: t('network.note') })} autoComplete="off" maxLength={200} value={note} onChange={(e) => setNote(e.target.value)} />
    </FormDialog>
  );
}
