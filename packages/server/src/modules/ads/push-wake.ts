/**
 * Waking phones for their offers through the push provider (FCM): a data message naming the command, sent to
 * each phone that gave a push token at check-in, after the offer is published on the device channel. The
 * channel alone delivers it to a connected phone; the push reaches one whose connection the phone's power
 * saving has closed, which then checks in and takes it. A token the provider calls unregistered is dropped.
 */
import type { PushProvider } from '../../providers/push/push.ts';
import type { CommandRow, DeviceRow, DevicesRepository } from '../devices/devices.repository.ts';

export interface PushSender {
  wake(items: ReadonlyArray<{ device: DeviceRow; row: CommandRow }>): Promise<void>;
}

/** Wake-ups in flight at once. */
const IN_FLIGHT = 16;

export function createPushWake(provider: PushProvider, devices: Pick<DevicesRepository, 'setOffers'>, log: (message: string, detail?: unknown) => void): PushSender {
  return {
    async wake(items) {
      const queue = items.filter((i) => i.device.push_token);
      const worker = async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          const token = item.device.push_token!;
          const result = await provider.send({ token, data: { type: 'offer', command_id: item.row.id }, ttlSeconds: 24 * 3600, collapseKey: 'offers' }).catch((error: unknown) => {
            log('push wake-up failed', error);
            return null;
          });
          if (result && !result.ok && (result.reason === 'unregistered' || result.reason === 'invalid')) await devices.setOffers(item.device.id, { pushToken: null });
        }
      };
      await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, queue.length) }, worker));
    },
  };
}
