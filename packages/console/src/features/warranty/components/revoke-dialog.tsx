/** Cancelling an extended warranty; the server's "cancelled" message is the toast, and the sale is read again (its tag). */
import { useTranslation } from 'react-i18next';
import type { WarrantySale } from '@kisht/contract/warranty';
import { CancelSaleDialog } from '../../../shared/ui/cancel-sale-dialog.tsx';
import { useRevokeWarrantyMutation } from '../api/warranty-api.ts';

export function RevokeDialog({ sale, onClose }: { sale: WarrantySale; onClose: () => void }) {
  const { t } = useTranslation();
  const [revoke, { isLoading }] = useRevokeWarrantyMutation();
  const name = `${sale.first_name} ${sale.last_name}`.trim();
  return (
    <CancelSaleDialog
      text={{
        title: t('warranty.revoke.title'), subject: t('antihacking.sold.planFor', { plan: sale.plan_name, name }), message: t('warranty.revoke.message'),
        reason: t('warranty.revoke.reason'), reasonPlaceholder: t('warranty.revoke.reasonPlaceholder'), keep: t('warranty.revoke.keep'), confirm: t('warranty.revoke.confirm'),
      }}
      busy={isLoading}
      onCancelSale={(reason) => revoke({ sale_id: sale.id, reason }).unwrap()}
      onClose={onClose}
    />
  );
}
