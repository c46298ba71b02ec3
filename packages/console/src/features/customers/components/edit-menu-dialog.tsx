/**
 * The customer's edit menu, with the entries the spec's rule gives this customer. Signature and
 * documents open their screens; the other edits and the EMM QR code arrive with later work and show
 * as "Coming soon".
 */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { customerPath } from '../../../shared/routes.ts';
import type { EditAction } from '../../../shared/rules/edit-menu.ts';
import { EDIT_ACTION_LABEL_KEYS } from '../../../shared/labels.ts';

function targetOf(action: EditAction, customerId: number): string | null {
  if (action === 'EDIT_SIGNATURE') return customerPath('signature', customerId);
  if (action === 'EDIT_DOCUMENTS') return customerPath('customer_documents', customerId);
  return null;
}

export function EditMenuDialog({ open, onClose, actions, customerId }: { open: boolean; onClose: () => void; actions: EditAction[]; customerId: number }) {
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
              {to ? (
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
