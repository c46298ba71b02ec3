/** A retailer's profile with its recent activity in its slot (composed here: features do not import each other). */
import { RetailerProfileScreen } from '../features/network/components/retailer-profile-screen.tsx';
import { MemberActivity } from '../features/audit/components/member-activity.tsx';

export function RetailerProfileRoute() {
  return <RetailerProfileScreen ActivitySection={MemberActivity} />;
}
