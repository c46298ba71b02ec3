/** The panel greys out what the server would refuse: the same switches table, from the domain. */
import { accessFor, isPermitted, type AccessSwitches } from '@kisht/domain/device-access';

export { accessFor, isPermitted, type AccessRequirement, type AccessSwitches } from '@kisht/domain/device-access';

export const isActionPermitted = (action: string, switches: AccessSwitches) => isPermitted(accessFor(action), switches);
