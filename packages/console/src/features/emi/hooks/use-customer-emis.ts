/** The customer in the address and their EMIs, instalments in order: what the two EMI screens start from. */
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { hasLoan } from '@kisht/domain/plans';
import { useGetCustomerProfileQuery, useGetEmiDetailsQuery } from '../../../shared/customers/customer-api.ts';
import { parseCustomerId } from '../../../shared/routes.ts';

export function useCustomerEmis() {
  const customerId = parseCustomerId(useParams().customer_id);
  const skip = customerId === null;
  const { data: profile } = useGetCustomerProfileQuery(customerId ?? 0, { skip });
  // A phone on a plan alone has no EMIs to ask for (the server would refuse with NO_LOAN): asked once the profile
  // says there is a loan (it is in the cache when the screen is opened from customer details).
  const { data: details, isError, refetch } = useGetEmiDetailsQuery(customerId ?? 0, { skip: skip || !profile || !hasLoan(profile) });
  const instalments = useMemo(() => [...(details?.instalments ?? [])].sort((a, b) => a.number - b.number), [details]);
  /** The EMIs could not be loaded (and none are shown). */
  const loadFailed = isError && !details && !!profile && hasLoan(profile);
  return { customerId, profile, details, instalments, loadFailed, retry: () => void refetch() };
}
