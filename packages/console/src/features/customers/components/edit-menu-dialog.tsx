/**
 * The customer's edit menu, with the entries the spec's rule gives this customer. IMEI edit opens its
 * dialog; EMI edit, signature, documents and the EMM QR code open their screens; check-status brings
 * the device panel into view and reads the phone again.
 */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { customerPath, emmQrPath } from '../../../shared/routes.ts';
import type { EditAction } from '@kisht/domain/edit-menu';
import { EDIT_ACTION_LABEL_KEYS } from '../../../shared/labels.ts';
import './customers.css';

function targetOf(action: EditAction, customerId: number): string | null {
  if (action === 'EDIT_SIGNATURE') return customerPath('signature', customerId);
  if (action === 'EDIT_DOCUMENTS') return customerPath('customer_documents', customerId);
  if (action === 'EMI_EDIT') return customerPath('emi_details', customerId);
  if (action === 'EMM_QR_CODE') return emmQrPath(customerId);
  return null;
}

export function EditMenuDialog({
  open,
  onClose,
  actions,
  customerId,
  onImeiEdit,
  onCheckStatus,
}: {
  open: boolean;
  onClose: () => void;
  actions: EditAction[];
  customerId: number;
  onImeiEdit: () => void;
  onCheckStatus: () => void;
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
              {action === 'IMEI_EDIT' || action === 'CHECK_STATUS' ? (
                <button type="button" className="nav-list__item" onClick={action === 'IMEI_EDIT' ? onImeiEdit : onCheckStatus}>
                  {t(EDIT_ACTION_LABEL_KEYS[action])}
                </button>
              ) : to ? (
                <Link className="nav-list__item" to={to}>
                  {t(EDIT_ACTION_LABEL_KEYS[action])}
                </Link>
              ) : null}
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}
