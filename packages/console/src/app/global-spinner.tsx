/** The spinner over the screen while any request runs, except on screens that draw skeletons. */
import { useMatches, useNavigation } from 'react-router';
import { useAppSelector } from '../shared/state/hooks.ts';
import { Spinner } from '../shared/ui/spinner.tsx';
import type { RouteHandle } from '../shared/routes.ts';

export function GlobalSpinner() {
  const apiLoading = useAppSelector((state) => state.main.apiLoading);
  const navigation = useNavigation();
  const matches = useMatches();
  const usesSkeletons = matches.some((match) => (match.handle as RouteHandle | undefined)?.loading === 'skeleton');
  const busy = (apiLoading && !usesSkeletons) || navigation.state === 'loading';
  if (!busy) return null;
  return (
    <div className="spinner-overlay">
      <Spinner />
    </div>
  );
}
