/** Translation keys of the device channel's codes: action names, command states, schedule states, command origins. */
import { DEVICE_ACTIONS } from '@kisht/domain/device-actions';
import { COMMAND_STATES } from './command-status.ts';
import { BATCH_STATES } from './batch-progress.ts';

export const DEVICE_ACTION_LABEL_KEYS: Record<string, string> = Object.fromEntries(
  [...DEVICE_ACTIONS, 'pin_change', 'unclaim'].map((action) => [action, `device.action.${action}`]),
);

export const COMMAND_STATE_LABEL_KEYS: Record<string, string> = Object.fromEntries(
  [...new Set([...COMMAND_STATES, ...BATCH_STATES])].map((state) => [state, `device.state.${state}`]),
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

/** Badge tone of a command or batch item state. */
export function stateTone(state: string): 'neutral' | 'success' | 'warning' | 'danger' | 'info' {
  if (state === 'done') return 'success';
  if (state === 'failed') return 'danger';
  if (state === 'expired' || state === 'skipped') return 'warning';
  return 'info';
}
