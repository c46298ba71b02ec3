/**
 * The anti-theft screen with "Enrol a phone", and (`?enrol=1`) the form that sells a phone anti-theft on its own
 * instead of the list (composed here: features do not import each other).
 */
import { useSearchParams } from 'react-router';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import { AntitheftScreen } from '../features/devices/components/antitheft-screen.tsx';
import { EnrolPlanPhoneLink } from '../features/plan-phones/components/enrol-plan-phone-link.tsx';
import { PlanPhoneScreen } from '../features/plan-phones/components/plan-phone-screen.tsx';

export function AntitheftRoute() {
  const [params] = useSearchParams();
  return params.get('enrol') === '1' ? <PlanPhoneScreen productType={PRODUCT_TYPE.ANTI_THEFT} /> : <AntitheftScreen EnrolLink={EnrolPlanPhoneLink} />;
}
