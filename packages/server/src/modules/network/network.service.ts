/**
 * The retailer network: the caller's subtree, adding and editing members, and key transfers. Every id a
 * caller names is looked up under the caller's own path: a parent, a sibling or another branch is NOT_FOUND.
 */
import { LOCK_ACCESS_KEYS, USER_ACCESS_KEYS } from '@kisht/domain/constants';
import type { AddMemberBody, BalanceType, HistoryPage, HistoryQuery, KeyTransfer, MemberProfile, NetworkList, NetworkMember, NetworkQuery, SchemeBody, TransferBody, UpdateMemberBody } from '@kisht/contract/network';
import type { Database, Queryable } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../errors.ts';
import { csvLine } from '../../shared/csv.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { Notify } from '../events/events.bus.ts';
import { createNotificationsRepository } from '../notifications/notifications.repository.ts';
import type { MemberRow, NetworkRepository, NodeRow, TransferRow } from './network.repository.ts';

export interface NetworkServiceDeps {
  db: Database;
  network: NetworkRepository;
  users: UsersRepository;
  /** Tells open consoles that members changed (after the change committed). */
  notify?: Notify;
  /** These users' sessions ended: their open event streams close now. */
  sessionsEnded?: (userIds: readonly number[]) => void;
}

type Switches = Record<string, '0' | '1'>;

/** The most lines a key history export holds. */
export const HISTORY_CSV_MAX = 50_000;

/** Switches asked for that the granter does not hold itself (only those may not be turned on). */
export function switchesNotHeld(asked: Switches | undefined, held: Switches): string[] {
  return Object.entries(asked ?? {}).filter(([key, value]) => value === '1' && held[key] !== '1').map(([key]) => key);
}

const toMember = (row: MemberRow): NetworkMember => ({
  id: row.id, user_type: row.user_type, first_name: row.first_name, last_name: row.last_name, shop_name: row.shop_name, mobile: row.mobile,
  city: row.city, active: row.active, parent_id: row.depth === 0 ? null : row.parent_id, depth: row.depth, balances: row.balances, customers: row.customers,
});

const toTransfer = (row: TransferRow): KeyTransfer => ({
  id: row.id, kind: row.kind, state: row.state, product_type: row.product_type, quantity: row.quantity, from_user_id: row.from_user_id,
  to_user_id: row.to_user_id, price_paise: row.price_paise, note: row.note, created_at: row.created_at.toISOString(), decided_at: row.decided_at?.toISOString() ?? null,
});

export function createNetworkService(deps: NetworkServiceDeps) {
  const { db, network, users } = deps;
  const changed = (...userIds: Array<number | null>) => deps.notify?.({ type: 'network', user_ids: userIds.filter((id): id is number => id !== null) });
  /** Switches or a block changed below these members: every node reads its cached sessions again. */
  const accessChanged = (userId: number) => deps.notify?.({ type: 'network', user_ids: [userId], access: true });

  const notices = createNotificationsRepository(db);
  /** The answer without the members a notification went to. */
  const withoutTold = (transfer: KeyTransfer & { told?: number[] }): KeyTransfer => {
    const { told: _told, ...rest } = transfer;
    return rest;
  };

  async function self(caller: RequestAuth, q: Queryable = db): Promise<NodeRow> {
    const node = await network.node(caller.userId, q);
    if (!node) throw new AppError('NOT_FOUND');
    return node;
  }

  /** A member below the caller (not the caller itself), or NOT_FOUND. */
  async function below(caller: RequestAuth, id: number, q: Queryable = db, lock = false): Promise<NodeRow> {
    const me = await self(caller, q);
    const node = id === me.id ? undefined : await network.nodeUnder(me.path, id, q, lock);
    if (!node) throw new AppError('NOT_FOUND');
    return node;
  }

  async function profile(caller: RequestAuth, id: number): Promise<MemberProfile> {
    const me = await self(caller);
    const row = await network.member(me.path, id);
    if (!row) throw new AppError('NOT_FOUND');
    const counts = await network.counts(row.id);
    return {
      ...toMember(row), email: row.email, user_access: row.user_access, lock_access: row.lock_access, own: row.id === me.id, ...counts,
      // Whether keys can be asked from or returned to someone above (the top of a network asks the operator).
      has_parent: row.parent_id !== null,
      has_photo: row.has_photo, has_signature: row.has_signature, upi_id: row.upi_id, upi_name: row.upi_name,
    };
  }

  return {
    async list(caller: RequestAuth, query: NetworkQuery): Promise<NetworkList> {
      const me = await self(caller);
      const { rows, total } = await network.list(me.path, query);
      return { total, page: query.page, limit: query.limit, items: rows.map(toMember) };
    },

    profile: (caller: RequestAuth, id?: number) => profile(caller, id ?? caller.userId),

    /** Adds a retailer or a mini-retailer below the caller (a retailer); it signs in with an OTP like anyone. */
    async add(caller: RequestAuth, body: AddMemberBody): Promise<MemberProfile> {
      if (caller.userType !== 'retailer') throw new AppError('ACCESS_DENIED');
      const notHeld = [...switchesNotHeld(body.user_access, caller.userAccess), ...switchesNotHeld(body.lock_access, caller.lockAccess)];
      if (notHeld.length > 0) throw new AppError('ACCESS_NOT_HELD', { details: notHeld.map((field) => ({ field, message: 'not held by you' })) });
      const mobile = `+91${body.mobile.slice(-10)}`;
      const me = await self(caller);
      let id: number;
      try {
        id = await db.transaction(async (tx) => {
          const user = await users.insert({
            org_id: me.org_id, user_type: body.user_type, parent_id: me.id,
            // A mini-retailer is a counter of the caller's shop (its account); a retailer is a shop of its own.
            account_id: body.user_type === 'miniretailer' ? me.account_id : null,
            first_name: body.first_name.trim(), last_name: body.last_name.trim(), mobile, email: body.email ?? null, shop_name: body.shop_name?.trim() ?? null, city: body.city?.trim() ?? null,
          }, tx);
          // Switches: the caller's own unless narrowed; never more than the caller holds.
          const userAccess: Switches = {};
          for (const key of USER_ACCESS_KEYS) userAccess[key] = body.user_access?.[key] ?? caller.userAccess[key] ?? '0';
          const lockAccess: Switches = {};
          for (const key of LOCK_ACCESS_KEYS) lockAccess[key] = body.lock_access?.[key] ?? caller.lockAccess[key] ?? '0';
          await users.setAccess(user.id, 'user_access', userAccess, tx);
          await users.setAccess(user.id, 'lock_access', lockAccess, tx);
          return user.id;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('MOBILE_TAKEN');
        throw error;
      }
      changed(id);
      return profile(caller, id);
    },

    /**
     * Edits a member below the caller. A switch may be turned on only if the caller holds it; turned off, it
     * goes off for everything below the member too. Blocking ends the member's and its subtree's sessions.
     */
    async update(caller: RequestAuth, body: UpdateMemberBody): Promise<MemberProfile> {
      if (caller.userType !== 'retailer' && body.user_id !== caller.userId) throw new AppError('ACCESS_DENIED');
      const notHeld = [...switchesNotHeld(body.user_access, caller.userAccess), ...switchesNotHeld(body.lock_access, caller.lockAccess)];
      if (notHeld.length > 0) throw new AppError('ACCESS_NOT_HELD', { details: notHeld.map((field) => ({ field, message: 'not held by you' })) });
      const ended = await db.transaction(async (tx): Promise<number[]> => {
        if (body.user_id === caller.userId) {
          // One's own details, yes; one's own switches and block state are the parent's to change.
          if (body.user_access || body.lock_access || body.active !== undefined) throw new AppError('ACCESS_DENIED');
          const { user_id: _own, ...details } = body;
          await network.update(caller.userId, details, tx);
          return [];
        }
        const member = await below(caller, body.user_id, tx, true);
        // Switches and blocking are the direct parent's: an ancestor further up blocks or narrows the parent (which
        // applies below it) rather than override a decision the parent made, or grant what the parent lacks.
        if ((body.user_access || body.lock_access || body.active !== undefined) && member.parent_id !== caller.userId) throw new AppError('ACCESS_DENIED');
        const { user_id: _id, ...changes } = body;
        await network.update(member.id, changes, tx);
        for (const column of ['user_access', 'lock_access'] as const) {
          const asked = body[column];
          if (!asked) continue;
          const on = Object.fromEntries(Object.entries(asked).filter(([, v]) => v === '1')) as Switches;
          const off = Object.fromEntries(Object.entries(asked).filter(([, v]) => v === '0').map(([k]) => [k, '0' as const]));
          if (Object.keys(on).length) await users.setAccess(member.id, column, on, tx);
          if (Object.keys(off).length) await network.switchOffBelow(member.path, column, off, tx);
        }
        return body.active === false ? network.endSessionsBelow(member.path, tx) : [];
      });
      if (body.user_access || body.lock_access || body.active !== undefined) accessChanged(body.user_id);
      else changed(body.user_id);
      if (ended.length > 0) deps.sessionsEnded?.(ended);
      return profile(caller, body.user_id);
    },

    /**
     * A key movement. `send`: from the caller to one of its own children, at once. `return`: from the caller
     * to its parent, at once. `request`: the caller asks its parent; nothing moves until the parent approves.
     * The id is the client's: sent again (also in parallel) it moves keys once and answers with the same
     * transfer; reused for a different transfer it is refused.
     */
    async transfer(caller: RequestAuth, body: TransferBody): Promise<KeyTransfer> {
      const transfer = await db.transaction(async (tx) => {
        const me = await self(caller, tx);
        let from: number;
        let to: number;
        if (body.kind === 'send') {
          if (body.to_user_id === undefined) throw new AppError('VALIDATION_FAILED', { details: [{ field: 'to_user_id', message: 'is required to send keys' }] });
          if (body.to_user_id === me.id) throw new AppError('ACTION_NOT_ALLOWED');
          const child = await below(caller, body.to_user_id, tx);
          if (child.parent_id !== me.id) throw new AppError('ACTION_NOT_ALLOWED'); // keys go one level at a time
          [from, to] = [me.id, child.id];
        } else {
          if (me.parent_id === null) throw new AppError('ACTION_NOT_ALLOWED'); // the top of the network asks the operator
          [from, to] = body.kind === 'return' ? [me.id, me.parent_id] : [me.parent_id, me.id];
        }
        const price = body.kind === 'return' ? null : await network.priceOf(from, body.product_type, tx);
        const { row, fresh } = await network.claimTransfer({
          id: body.id, kind: body.kind, state: body.kind === 'request' ? 'pending' : 'done', product_type: body.product_type, quantity: body.quantity,
          from_user_id: from, to_user_id: to, price_paise: price, note: body.note?.trim() || null, created_by: me.id,
        }, tx);
        if (!fresh) {
          const same = row.kind === body.kind && row.product_type === body.product_type && row.quantity === body.quantity && row.from_user_id === from && row.to_user_id === to;
          if (!same) throw new AppError('TRANSFER_ID_REUSED');
          return toTransfer(row);
        }
        if (row.state === 'done' && !(await network.move(row, tx))) throw new AppError('NOT_ENOUGH_KEYS');
        // The other side's bell (issue 14): a parent asked for keys, or keys arrived.
        const told = row.kind === 'request'
          ? await notices.keys(from, 'key_request', me.id, row.quantity, row.product_type, tx)
          : await notices.keys(to, 'keys_received', me.id, row.quantity, row.product_type, tx);
        return { ...toTransfer(row), told };
      });
      changed(transfer.from_user_id, transfer.to_user_id);
      if ('told' in transfer && transfer.told) deps.notify?.({ type: 'notification', user_ids: transfer.told });
      return withoutTold(transfer);
    },

    /** The parent approves (keys move now, if it still holds them) or rejects a child's request. */
    async decide(caller: RequestAuth, id: string, decision: 'approve' | 'reject'): Promise<KeyTransfer> {
      const transfer = await db.transaction(async (tx) => {
        const row = await network.pendingForUpdate(id, tx);
        if (!row || row.kind !== 'request' || row.from_user_id !== caller.userId) throw new AppError('NOT_FOUND');
        if (row.state !== 'pending') {
          // Deciding again the same way answers as before; the other way is refused.
          if ((row.state === 'done') === (decision === 'approve')) return toTransfer(row);
          throw new AppError('ACTION_NOT_ALLOWED');
        }
        if (decision === 'reject') return toTransfer(await network.decide(id, 'rejected', caller.userId, null, tx));
        const price = await network.priceOf(caller.userId, row.product_type, tx);
        const done = await network.decide(id, 'done', caller.userId, price, tx);
        if (!(await network.move(done, tx))) throw new AppError('NOT_ENOUGH_KEYS');
        return { ...toTransfer(done), told: await notices.keys(done.to_user_id, 'keys_received', caller.userId, done.quantity, done.product_type, tx) };
      });
      changed(transfer.from_user_id, transfer.to_user_id);
      if ('told' in transfer && transfer.told) deps.notify?.({ type: 'notification', user_ids: transfer.told });
      return withoutTold(transfer);
    },

    /** A member's key history (the caller's own, or a member's below it). */
    async history(caller: RequestAuth, query: HistoryQuery): Promise<HistoryPage> {
      const me = await self(caller);
      const whose = query.user_id === undefined || query.user_id === me.id ? me : await network.nodeUnder(me.path, query.user_id);
      if (!whose) throw new AppError('NOT_FOUND');
      const { rows, total } = await network.history(whose.id, me.id, {
        ...(query.product_type !== undefined ? { productType: query.product_type } : {}),
        ...(query.from ? { from: query.from } : {}), ...(query.to ? { to: query.to } : {}),
        limit: query.limit, offset: (query.page - 1) * query.limit,
      });
      return { total, page: query.page, limit: query.limit, items: rows.map((r) => ({ ...r, at: r.at.toISOString() })) };
    },

    /** The same history as CSV, oldest first, every line of the filter (at most HISTORY_CSV_MAX lines). */
    async historyCsv(caller: RequestAuth, query: Omit<HistoryQuery, 'page' | 'limit'>): Promise<string> {
      const lines = [csvLine(['at', 'kind', 'product_type', 'change', 'balance_after', 'state', 'counterpart_id', 'counterpart_name', 'customer_id', 'price_paise', 'transfer_id'])];
      const rows: HistoryPage['items'] = [];
      for (let page = 1; rows.length < HISTORY_CSV_MAX; page++) {
        const next = await this.history(caller, { ...query, page, limit: 100 });
        rows.push(...next.items);
        if (next.items.length < 100) break;
      }
      for (const r of rows.reverse()) lines.push(csvLine([r.at, r.kind, r.product_type, r.change, r.balance_after, r.state, r.counterpart_id, r.counterpart_name, r.customer_id, r.price_paise, r.transfer_id]));
      return `${lines.join('\r\n')}\r\n`;
    },

    /** The caller's key balances by product type, with the price it buys at and the price it sells at. */
    async balanceTypes(caller: RequestAuth): Promise<BalanceType[]> {
      const me = await self(caller);
      return network.balanceTypes(me.id, me.parent_id, me.org_id);
    },

    /** Sets the caller's price per key to its children (a retailer; mini-retailers have no children). */
    async setScheme(caller: RequestAuth, body: SchemeBody): Promise<BalanceType[]> {
      if (caller.userType !== 'retailer') throw new AppError('ACCESS_DENIED');
      const me = await self(caller);
      if (!(await network.balanceTypes(me.id, me.parent_id, me.org_id)).some((t) => t.product_type === body.product_type)) {
        throw new AppError('VALIDATION_FAILED', { details: [{ field: 'product_type', message: 'is not a product of your organisation' }] });
      }
      await network.setPrice(me.id, body.product_type, body.price_paise);
      return network.balanceTypes(me.id, me.parent_id, me.org_id);
    },

    /** The operator tops up a member's keys (from the CLI). */
    async topUp(mobile: string, productType: number, quantity: number, transferId: string, tx: Queryable): Promise<KeyTransfer> {
      const user = await users.findByMobile(mobile, tx);
      if (!user) throw new AppError('NOT_FOUND');
      const { row, fresh } = await network.claimTransfer({
        id: transferId, kind: 'topup', state: 'done', product_type: productType, quantity, from_user_id: null, to_user_id: user.id, price_paise: null, note: null, created_by: null,
      }, tx);
      if (fresh) await network.move(row, tx);
      // The operator's transaction commits after this returns; an event sent a moment early costs one early refetch.
      changed(user.id);
      return toTransfer(row);
    },
  };
}
export type NetworkService = ReturnType<typeof createNetworkService>;
