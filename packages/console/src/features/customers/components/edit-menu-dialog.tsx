/**
 * The customer's edit menu, with the entries the spec's rule gives this customer. IMEI edit opens its
 * dialog; EMI edit, signature and documents open their screens; the EMM QR code and check-status
 * arrive with the device work and show as "Coming soon".
 */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { customerPath } from '../../../shared/routes.ts';
import type { EditAction } from '@kisht/domain/edit-menu';
import { EDIT_ACTION_LABEL_KEYS } from '../../../shared/labels.ts';

function targetOf(action: EditAction, customerId: number): string | null {
  if (action === 'EDIT_SIGNATURE') return customerPath('signature', customerId);
  if (action === 'EDIT_DOCUMENTS') return customerPath('customer_documents', customerId);
  if (action === 'EMI_EDIT') return customerPath('emi_details', customerId);
  return null;
}

export function EditMenuDialog({
  open,
  onClose,
  actions,
  customerId,
  onImeiEdit,
}: {
  open: boolean;
  onClose: () => void;
  actions: EditAction[];
  customerId: number;
  onImeiEdit: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      title={t('customerDetails.editMenu')}
      onClose={onClose}
      actions={
        <button type="button" className="button button--secondary" onClick={onClose}>
          {t('common.close')}
        </button>
      }
    >
      <ul className="nav-list menu-list">
        {actions.map((action) => {
          const to = targetOf(action, customerId);
          return (
            <li key={action}>
              {action === 'IMEI_EDIT' ? (
                <button type="button" className="nav-list__item" onClick={onImeiEdit}>
                  {t(EDIT_ACTION_LABEL_KEYS[action])}
                </button>
              ) : to ? (
                <Link className="nav-list__item" to={to}>
                  {t(EDIT_ACTION_LABEL_KEYS[action])}
                </Link>
              ) : (
                <button type="button" className="nav-list__item" disabled>
                  <span>{t(EDIT_ACTION_LABEL_KEYS[action])}</span>
                  <span className="badge badge--neutral">{t('common.comingSoon')}</span>
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}
