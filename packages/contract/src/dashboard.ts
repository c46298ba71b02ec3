/** The dashboard's figures for the caller's network (a mini-retailer: its own customers). */
import { Type, type Static } from 'typebox';

export const DashboardQuery = Type.Object({ days: Type.Integer({ minimum: 7, maximum: 90, default: 30 }) });
export type DashboardQuery = Static<typeof DashboardQuery>;

export const DashboardStats = Type.Object({
  total_customers: Type.Integer(),
  customers_by_status: Type.Array(Type.Object({ install_status: Type.Integer(), count: Type.Integer() }), { description: 'All seven statuses, zeros included' }),
  lock: Type.Object({ locked: Type.Integer(), unlocked: Type.Integer() }),
  keys_left: Type.Array(Type.Object({ product_type: Type.Integer(), balance: Type.Integer() })),
  emis: Type.Object({ due_today: Type.Integer(), due_today_paise: Type.Integer(), overdue: Type.Integer(), overdue_paise: Type.Integer() }),
  collections: Type.Array(Type.Object({ date: Type.String({ description: 'India date YYYY-MM-DD' }), amount_paise: Type.Integer({ description: 'Net of reversals' }) }), { description: 'One entry per day of the period, oldest first, zeros included' }),
});
export type DashboardStats = Static<typeof DashboardStats>;
