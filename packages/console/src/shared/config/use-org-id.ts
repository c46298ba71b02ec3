/** The signed-in retailer's organisation: the token's `org` claim, else the organisation config's id. */
import { decodeTokenPayload } from '../auth/token.ts';
import { readStored } from '../storage.ts';
import { useGetOrgAppConfigQuery } from './config-api.ts';

export function useOrgId(): number | null {
  const { data } = useGetOrgAppConfigQuery();
  return decodeTokenPayload(readStored('token'))?.org ?? data?.org_id ?? null;
}
