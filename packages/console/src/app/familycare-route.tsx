/**
 * The family-care screen with "Enrol a phone", and (`?enrol=1`) the form that sells a phone family care on its own
 * instead of the list (composed here: features do not import each other).
 */
import { useSearchParams } from 'react-router';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import { FamilyCareScreen } from '../features/familycare/components/familycare-screen.tsx';
import { EnrolPlanPhoneLink } from '../features/plan-phones/components/enrol-plan-phone-link.tsx';
import { PlanPhoneScreen } from '../features/plan-phones/components/plan-phone-screen.tsx';

export function FamilyCareRoute() {
  const [params] = useSearchParams();
  return params.get('enrol') === '1' ? <PlanPhoneScreen productType={PRODUCT_TYPE.FAMILYCARE} /> : <FamilyCareScreen EnrolLink={EnrolPlanPhoneLink} />;
}
