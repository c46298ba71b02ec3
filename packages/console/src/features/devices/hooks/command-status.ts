/**
 * A device command's life (queued -> sent -> delivered -> done | failed, or expired) as the panel shows
 * it: when to keep polling, when a lock or unlock has settled, and what the phone reported back.
 */
import type { DeviceCommand, DevicePanel } from '@kisht/contract/devices';

export const COMMAND_STATES = ['queued', 'sent', 'delivered', 'done', 'failed', 'expired'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];

const FINISHED: readonly string[] = ['done', 'failed', 'expired'];

/**
 * The server's event stream tells the panel when a command moves; only while that stream is down does the
 * panel poll, slowly, and only while a command is under way.
 */
export const COMMAND_FALLBACK_POLL_MS = 10_000;
export const commandPollMs = (unfinished: boolean, streamLive: boolean) => (unfinished && !streamLive ? COMMAND_FALLBACK_POLL_MS : 0);

export const isFinished = (state: string) => FINISHED.includes(state);

export const anyUnfinished = (commands: readonly Pick<DeviceCommand, 'state'>[] | undefined) => (commands ?? []).some((c) => !isFinished(c.state));

/** Commands whose outcome changes the customer's record (lock status, install status). */
const PROFILE_COMMANDS: readonly string[] = ['lock', 'unlock', 'uninstall', 'uninstall_antitheft', 'unclaim'];

/**
 * Whether the customer's record may have changed between two reads of the panel: a lock, unlock or
 * removal finished, or the lock status itself moved. The profile (and its badges) is then read again.
 */
export function profileMayHaveChanged(previous: DevicePanel | undefined, next: DevicePanel): boolean {
  if (!previous) return false;
  if (previous.lock_status !== next.lock_status) return true;
  const wasRunning = new Set(previous.commands.filter((c) => PROFILE_COMMANDS.includes(c.type) && !isFinished(c.state)).map((c) => c.id));
  return next.commands.some((c) => wasRunning.has(c.id) && isFinished(c.state));
}

/** The panel's list with a command added or replaced (newest first, as the server sends it). */
export function withCommand(commands: readonly DeviceCommand[], command: DeviceCommand): DeviceCommand[] {
  const rest = commands.filter((c) => c.id !== command.id);
  return [command, ...rest].sort((a, b) => b.seq - a.seq);
}

export interface ReportedLocation {
  latitude: number;
  longitude: number;
  accuracy: number | null;
  at: string | null;
}

export interface ReportedSim {
  slot: number;
  operator: string | null;
  iccid: string | null;
  number: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

export function readLocation(value: unknown): ReportedLocation | null {
  if (!isRecord(value) || typeof value.latitude !== 'number' || typeof value.longitude !== 'number') return null;
  return { latitude: value.latitude, longitude: value.longitude, accuracy: typeof value.accuracy === 'number' ? value.accuracy : null, at: text(value.at) };
}

export function readSims(value: unknown): ReportedSim[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter(isRecord).map((sim) => ({
    slot: typeof sim.slot === 'number' ? sim.slot : 0,
    operator: text(sim.operator),
    iccid: text(sim.iccid),
    number: text(sim.number),
  }));
}

/** What a finished command brought back: a location, SIM details, or the phone's error. */
export function readResult(result: unknown): { location: ReportedLocation | null; sims: ReportedSim[] | null; error: string | null } {
  if (!isRecord(result)) return { location: null, sims: null, error: null };
  return { location: readLocation(result.location), sims: readSims(result.sims), error: text(result.error) };
}

/** A map link for a point (opens the phone's map app or the web map). */
export function mapLink(latitude: number, longitude: number): string {
  return `https://www.google.com/maps/search/?api=1&query=${latitude},${longitude}`;
}

/** The timestamp of each state the command has reached, in order. */
export function stateTimes(command: DeviceCommand): { state: CommandState; at: string }[] {
  const times: { state: CommandState; at: string | null }[] = [
    { state: 'queued', at: command.created_at },
    { state: 'sent', at: command.sent_at },
    { state: 'delivered', at: command.delivered_at },
  ];
  if (isFinished(command.state)) times.push({ state: command.state as CommandState, at: command.finished_at ?? (command.state === 'expired' ? command.expires_at : null) });
  return times.filter((t): t is { state: CommandState; at: string } => t.at !== null);
}
