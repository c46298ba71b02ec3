/** Organisations (white-label tenants) and their public price lists. */
import type { Queryable } from '../../db/database.ts';
import type { OrgFeatures } from '@kisht/domain/constants';

export interface OrgRow {
  id: number;
  name: string;
  short_name: string;
  company_name: string;
  parent_company_name: string;
  ai_assistant_name: string;
  features: OrgFeatures;
  support_phone: string | null;
  support_email: string | null;
  support_whatsapp: string | null;
  support_hours: string | null;
  offline_lock_days: number;
}

export function createOrgRepository(db: Queryable) {
  return {
    async findById(id: number): Promise<OrgRow | undefined> {
      return (await db.query<OrgRow>('SELECT * FROM organizations WHERE id = $1', [id])).rows[0];
    },
    async setFeature(id: number, feature: keyof OrgFeatures, on: boolean, q: Queryable = db): Promise<boolean> {
      const res = await q.query(`UPDATE organizations SET features = features || jsonb_build_object($2::text, $3::boolean) WHERE id = $1`, [id, feature, on]);
      return res.rowCount > 0;
    },
    async priceList(orgId: number) {
      const res = await db.query<{ product_type: number; name: string; validity_days: number | null; price_paise: number | null }>(
        'SELECT product_type, name, validity_days, price_paise FROM price_list WHERE org_id = $1 ORDER BY sort_order, id',
        [orgId],
      );
      return res.rows;
    },
  };
}
export type OrgRepository = ReturnType<typeof createOrgRepository>;
