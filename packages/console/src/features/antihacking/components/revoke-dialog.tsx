/** Cancelling an anti-hacking plan sold; the server's "cancelled" message is the toast, and the list reads the sale again (its tag). */
import { useTranslation } from 'react-i18next';
import type { AntihackingSale } from '@kisht/contract/plans';
import { CancelSaleDialog } from '../../../shared/ui/cancel-sale-dialog.tsx';
import { useRevokeAntihackingMutation } from '../api/antihacking-api.ts';

export function RevokeDialog({ sale, onClose }: { sale: AntihackingSale; onClose: () => void }) {
  const { t } = useTranslation();
  const [revoke, { isLoading }] = useRevokeAntihackingMutation();
  const name = `${sale.first_name} ${sale.last_name}`.trim();
  return (
    <CancelSaleDialog
      text={{
        title: t('antihacking.revoke.title'), subject: t('antihacking.sold.planFor', { plan: sale.plan_name, name }), message: t('antihacking.revoke.message'),
        reason: t('antihacking.revoke.reason'), reasonPlaceholder: t('antihacking.revoke.reasonPlaceholder'), keep: t('antihacking.revoke.keep'), confirm: t('antihacking.revoke.confirm'),
      }}
      busy={isLoading}
      onCancelSale={(reason) => revoke({ sale_id: sale.id, reason }).unwrap()}
      onClose={onClose}
    />
  );
}
