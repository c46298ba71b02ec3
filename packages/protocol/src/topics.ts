/** Each device's own broker topics and username; the broker lets a device use nothing else. */
/** A device's broker username (and client id) is its id, so a Mosquitto ACL can say `%u`. */
export const deviceUsername = (deviceId: string) => deviceId;
export const commandTopic = (deviceId: string) => `kisht/v1/d/${deviceId}/cmd`;
export const eventTopic = (deviceId: string) => `kisht/v1/d/${deviceId}/evt`;

const USERNAME = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const EVENT_TOPIC = /^kisht\/v1\/d\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/evt$/;

export function deviceIdOf(username: string | undefined): string | null {
  return username ? (USERNAME.exec(username)?.[1] ?? null) : null;
}

export function deviceIdOfEventTopic(topic: string): string | null {
  return EVENT_TOPIC.exec(topic)?.[1] ?? null;
}
