/**
 * A member's switches (user access and lock access) as checkboxes. A switch the granter does not hold itself
 * is greyed and cannot be turned on (turning one off is always possible, and applies below the member too).
 */
import { useTranslation } from 'react-i18next';
import { canToggle, SWITCH_GROUPS, type SwitchGroup } from '../hooks/member.ts';

export type SwitchValues = Record<SwitchGroup, Record<string, '0' | '1'>>;

export function SwitchList({
  values,
  granter,
  busy,
  onChange,
}: {
  values: SwitchValues;
  granter: SwitchValues;
  busy?: boolean;
  onChange: (group: SwitchGroup, key: string, on: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {SWITCH_GROUPS.map(({ group, keys }) => (
        <fieldset key={group} className="fieldset">
          <legend>{t(`network.switchGroup.${group}`)}</legend>
          <ul className="switch-list">
            {keys.map((key) => {
              const on = values[group][key] === '1';
              const held = granter[group][key] === '1';
              const enabled = canToggle(on, held) && !busy;
              return (
                <li key={key}>
                  <label className={`switch-row${canToggle(on, held) ? '' : ' switch-row--disabled'}`}>
                    <input type="checkbox" checked={on} disabled={!enabled} onChange={(e) => onChange(group, key, e.target.checked)} />
                    <span>
                      {t(`network.switch.${group}.${key}`)}
                      {!held ? <span className="muted"> · {t('network.notHeld')}</span> : null}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
      ))}
    </>
  );
}
