/**
 * retailer_profile (?user_id= for a member below the caller, none for the caller's own): details (editable),
 * key balances and transfers (send to a child; request from or return to one's parent), switches greyed where
 * the caller does not hold them, block and unblock, and links to the member's key history.
 */
import { useEffect, useState, type ComponentType } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { MemberProfile } from '@kisht/contract/network';
import { Page } from '../../../shared/ui/page.tsx';
import { Facts } from '../../../shared/ui/facts.tsx';
import { ConfirmDialog } from '../../../shared/ui/confirm-dialog.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { NotFoundScreen } from '../../../shared/ui/not-found-screen.tsx';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { selectAccessConfig, selectUserAccessConfig } from '../../../shared/config/config-api.ts';
import { useAppSelector } from '../../../shared/state/hooks.ts';
import { useGetDetailsQuery } from '../../../shared/auth/session-api.ts';
import { parseId } from '../../../shared/routes.ts';
import { useUpdateMemberMutation } from '../api/network-api.ts';
import { useGetBalanceTypesQuery, useGetMemberQuery } from '../../../shared/network/member-api.ts';
import { historyPath, memberName, type SwitchGroup } from '../hooks/member.ts';
import { MemberBalances } from './member-balances.tsx';
import { SwitchList, type SwitchValues } from './switch-list.tsx';
import { TransferDialog, type TransferKind } from './transfer-dialog.tsx';
import { EditMemberDialog } from './edit-member-dialog.tsx';
import { KeyStock } from './key-stock.tsx';
import { MemberImages } from './member-images.tsx';
import { KeyPrices } from './key-prices.tsx';
import './network.css';

function MemberSwitches({ member }: { member: MemberProfile }) {
  const { t } = useTranslation();
  const granter: SwitchValues = { user_access: useAppSelector(selectUserAccessConfig), lock_access: useAppSelector(selectAccessConfig) };
  const [update, { isLoading }] = useUpdateMemberMutation();
  // The switch moves at once and stays so until the profile read again shows it; it goes back if the server
  // refuses (the error toast says why).
  const [pending, setPending] = useState<{ group: SwitchGroup; key: string; on: boolean } | null>(null);
  const stored = (p: NonNullable<typeof pending>) => member[p.group][p.key] === (p.on ? '1' : '0');
  useEffect(() => {
    if (pending && stored(pending)) setPending(null);
  });
  const values: SwitchValues = { user_access: { ...member.user_access }, lock_access: { ...member.lock_access } };
  if (pending) values[pending.group][pending.key] = pending.on ? '1' : '0';
  function change(group: SwitchGroup, key: string, on: boolean) {
    setPending({ group, key, on });
    void update({ user_id: member.id, [group]: { [key]: on ? '1' : '0' } })
      .unwrap()
      .catch(() => setPending(null));
  }
  return (
    <section className="card stack" aria-labelledby="switches-title">
      <h2 id="switches-title">{t('network.switchesTitle')}</h2>
      <p className="muted">{t('network.switchesHelp')}</p>
      <SwitchList values={values} granter={granter} busy={isLoading} onChange={change} />
    </section>
  );
}

function BlockButton({ member }: { member: MemberProfile }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [update, { isLoading }] = useUpdateMemberMutation();
  const blocking = member.active;
  return (
    <>
      <button type="button" className={`button ${blocking ? 'button--danger' : 'button--primary'}`} onClick={() => setAsking(true)}>
        {t(blocking ? 'network.block' : 'network.unblock')}
      </button>
      <ConfirmDialog
        open={asking}
        title={t(blocking ? 'network.blockTitle' : 'network.unblockTitle', { name: memberName(member) })}
        message={t(blocking ? 'network.blockConfirm' : 'network.unblockConfirm')}
        confirmLabel={t(blocking ? 'network.block' : 'network.unblock')}
        danger={blocking}
        busy={isLoading}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          void update({ user_id: member.id, active: !blocking })
            .unwrap()
            .then(() => setAsking(false), () => undefined);
        }}
      />
    </>
  );
}

/** ActivitySection: the member's recent activity, given by the route (features do not import each other). */
export function RetailerProfileScreen({ ActivitySection }: { ActivitySection?: ComponentType<{ userId: number }> }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get('user_id');
  const userId = raw === null ? undefined : parseId(raw);
  const { data: me } = useGetDetailsQuery();
  const { currentData: member, error, isError, refetch } = useGetMemberQuery(userId ?? undefined, { skip: userId === null });
  const { data: types = [] } = useGetBalanceTypesQuery();
  const [dialog, setDialog] = useState<TransferKind | 'edit' | null>(null);

  if (userId === null || (isApiFailure(error) && error.code === 'NOT_FOUND')) return <NotFoundScreen />;
  const title = member?.own ? t('network.myProfile') : t('network.profileTitle');
  if (isError && !member) {
    return (
      <Page title={title}>
        <LoadErrorCard message={t('network.profileError')} onRetry={() => void refetch()} />
      </Page>
    );
  }
  if (!member) {
    return (
      <Page title={title}>
        <p className="visually-hidden" aria-busy="true">
          {t('common.loading')}
        </p>
      </Page>
    );
  }
  const isMyChild = !member.own && me !== undefined && member.parent_id === me.id;
  const canEdit = member.own || me?.user_type === 'retailer';

  return (
    <Page title={title}>
      <article className="card stack" aria-labelledby="member-name">
        <div className="customer-row__top">
          <h2 id="member-name">
            {memberName(member)}
          </h2>
          <span className={`badge ${member.active ? 'badge--info' : 'badge--danger'}`}>{t(member.active ? `network.type.${member.user_type}` : 'network.blocked')}</span>
        </div>
        <Facts
          rows={[
            [t('network.shopName'), member.shop_name],
            [t('addCustomer.mobile'), member.mobile],
            [t('addCustomer.email'), member.email],
            [t('addCustomer.city'), member.city],
            [t('network.customersLabel'), member.customers],
            ...(member.user_type === 'retailer' ? [[t('network.childrenLabel'), member.children] as [string, number]] : []),
            [t('network.pendingLabel'), member.pending_requests],
          ]}
        />
        {canEdit ? (
          <div className="button-row">
            <button type="button" className="button button--secondary button--small" onClick={() => setDialog('edit')}>
              {t('customerEdit.editDetails')}
            </button>
          </div>
        ) : null}
      </article>

      <section className="card stack" aria-labelledby="keys-title">
        <h2 id="keys-title">{t('network.keysTitle')}</h2>
        {member.own ? <KeyStock types={types} /> : <MemberBalances balances={member.balances} />}
        <div className="button-row">
          {isMyChild ? (
            <button type="button" className="button button--primary button--small" onClick={() => setDialog('send')}>
              {t('network.transfer.send.open')}
            </button>
          ) : null}
          {member.own && member.has_parent ? (
            <>
              <button type="button" className="button button--primary button--small" onClick={() => setDialog('request')}>
                {t('network.transfer.request.open')}
              </button>
              <button type="button" className="button button--secondary button--small" onClick={() => setDialog('return')}>
                {t('network.transfer.return.open')}
              </button>
            </>
          ) : null}
          <Link className="button button--secondary button--small" to={historyPath(member.own ? undefined : member.id)}>
            {t('network.historyLink')}
          </Link>
        </div>
      </section>

      {member.own && member.user_type === 'retailer' && types.length > 0 ? <KeyPrices types={types} /> : null}

      {isMyChild ? (
        <>
          <MemberSwitches member={member} />
          <section className="card stack" aria-labelledby="status-title">
            <h2 id="status-title">{t('network.statusTitle')}</h2>
            <p className="muted">{t(member.active ? 'network.activeHelp' : 'network.blockedHelp')}</p>
            <div className="button-row">
              <BlockButton member={member} />
            </div>
          </section>
        </>
      ) : null}

      {canEdit ? <MemberImages member={member} /> : null}
      {ActivitySection && (member.own || me?.user_type === 'retailer') ? <ActivitySection userId={member.id} /> : null}

      {dialog === 'edit' ? <EditMemberDialog member={member} onClose={() => setDialog(null)} /> : null}
      {dialog === 'send' || dialog === 'request' || dialog === 'return' ? (
        <TransferDialog kind={dialog} toUserId={dialog === 'send' ? member.id : undefined} types={types} onClose={() => setDialog(null)} />
      ) : null}
    </Page>
  );
}
