/**
 * Translation keys of the device channel's codes: action names, schedule states, command origins.
 * Command states (their keys and badge) are shared: shared/ui/status-badges.tsx.
 */
import { DEVICE_ACTIONS } from '@kisht/domain/device-actions';

export const DEVICE_ACTION_LABEL_KEYS: Record<string, string> = Object.fromEntries(
  [...DEVICE_ACTIONS, 'pin_change', 'unclaim', 'ring'].map((action) => [action, `device.action.${action}`]),
);

export const SCHEDULE_STATE_LABEL_KEYS: Record<string, string> = {
  scheduled: 'device.schedule.state.scheduled',
  done: 'device.schedule.state.done',
  skipped: 'device.schedule.state.skipped',
  cancelled: 'device.schedule.state.cancelled',
};

export const COMMAND_ORIGIN_LABEL_KEYS: Record<string, string> = {
  retailer: 'device.origin.retailer',
  schedule: 'device.origin.schedule',
  bulk: 'device.origin.bulk',
  sim_change: 'device.origin.sim_change',
  dues: 'device.origin.dues',
};
