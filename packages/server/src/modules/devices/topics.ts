/** Each device's own broker topics and username; the broker lets a device use nothing else. */
export const deviceUsername = (deviceId: string) => `d_${deviceId}`;
export const commandTopic = (deviceId: string) => `kisht/v1/d/${deviceId}/cmd`;
export const eventTopic = (deviceId: string) => `kisht/v1/d/${deviceId}/evt`;

const USERNAME = /^d_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
export function deviceIdOf(username: string | undefined): string | null {
  return username ? (USERNAME.exec(username)?.[1] ?? null) : null;
}
