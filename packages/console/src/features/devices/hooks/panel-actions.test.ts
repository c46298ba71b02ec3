import { describe, expect, it } from 'vitest';
import { panelActionGroups } from './panel-actions.ts';

describe('panelActionGroups', () => {
  it('shows "Change screen PIN" once when the server offers it (a DPC phone, unlocked)', () => {
    const groups = panelActionGroups({ main: ['lock', 'camera_lock', 'pin_change'], info: ['fetch_location', 'sim_info', 'pin_change'] });
    expect([...groups.main, ...groups.info].filter((a) => a === 'pin_change')).toHaveLength(1);
    expect(groups).toEqual({ main: ['lock', 'camera_lock', 'pin_change'], info: ['fetch_location', 'sim_info'] });
  });

  it('adds nothing the server did not offer', () => {
    expect(panelActionGroups({ main: ['lock'], info: ['reboot', 'sim_info'] })).toEqual({ main: ['lock'], info: ['reboot', 'sim_info'] });
    expect(panelActionGroups({ main: [], info: [] })).toEqual({ main: [], info: [] });
  });

  it('drops repeats inside one group too', () => {
    expect(panelActionGroups({ main: ['lock', 'lock'], info: ['sim_info', 'sim_info'] })).toEqual({ main: ['lock'], info: ['sim_info'] });
  });
});
