/** The retailer's own sessions: listed with the current one marked, and ended one by one or all others. */
import { AppError } from '../../errors.ts';
import type { SessionItem } from '@kisht/contract/sessions';
import type { SessionsRepository } from './sessions.repository.ts';

export function createSessionsService(sessions: SessionsRepository) {
  return {
    async listMine(userId: number, currentId: string): Promise<SessionItem[]> {
      const rows = await sessions.listLive(userId);
      return rows.map((s) => ({
        id: s.id,
        current: s.id === currentId,
        created_at: s.created_at.toISOString(),
        last_seen_at: s.last_seen_at.toISOString(),
        expires_at: s.expires_at.toISOString(),
        ip: s.ip,
        auth_platform: s.auth_platform,
        device_details: s.device_details,
        browser_name: s.browser_name,
        browser_version: s.browser_version,
        device_type: s.device_type,
        device_platform: s.device_platform,
      }));
    },
    /** Someone else's session id looks exactly like one that does not exist. */
    async endMine(userId: number, sessionId: string): Promise<number> {
      const ended = await sessions.end(sessionId, userId, 'ended_by_user');
      if (ended === 0) throw new AppError('NOT_FOUND');
      return ended;
    },
    endOthers(userId: number, currentId: string): Promise<number> {
      return sessions.endAllExcept(userId, currentId, 'ended_by_user');
    },
  };
}
export type SessionsService = ReturnType<typeof createSessionsService>;
