import { describe, expect, it } from 'vitest';
import { parseEnrolmentPayload } from './enrolment-payload.ts';
import { resolveMqttUrl } from './agent.ts';

const EXTRAS = 'android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE';

describe('enrolment payloads', () => {
  it('reads the server and token from the DPC provisioning JSON, as an object or as text', () => {
    const extras = { 'kisht.server': 'https://kisht.example', 'kisht.token': 'abc', 'kisht.v': '1' };
    expect(parseEnrolmentPayload(JSON.stringify({ [EXTRAS]: extras }))).toEqual({ server: 'https://kisht.example', token: 'abc' });
    expect(parseEnrolmentPayload(JSON.stringify({ [EXTRAS]: JSON.stringify(extras) }))).toEqual({ server: 'https://kisht.example', token: 'abc' });
  });

  it('reads the LINKFL deep link', () => {
    expect(parseEnrolmentPayload('kisht://enrol?server=https%3A%2F%2Fk.example&token=t1')).toEqual({ server: 'https://k.example', token: 't1' });
  });

  it('refuses text without the extras, another version, and garbage', () => {
    expect(() => parseEnrolmentPayload('{}')).toThrow(/kisht.server/);
    expect(() => parseEnrolmentPayload(JSON.stringify({ [EXTRAS]: { 'kisht.server': 's', 'kisht.token': 't', 'kisht.v': '2' } }))).toThrow(/version/);
    expect(() => parseEnrolmentPayload('hello')).toThrow();
  });
});

describe('the broker URL', () => {
  it("takes the server's, with a wildcard host made the API host, or MQTT over WebSocket on the API host", () => {
    expect(resolveMqttUrl('mqtt://0.0.0.0:1884', 'http://10.0.0.5:8080')).toBe('mqtt://10.0.0.5:1884');
    expect(resolveMqttUrl('mqtts://broker.example:8883', 'https://api.example')).toBe('mqtts://broker.example:8883');
    expect(resolveMqttUrl(undefined, 'https://api.example')).toBe('wss://api.example/mqtt');
    expect(resolveMqttUrl(undefined, 'http://localhost:8080')).toBe('ws://localhost:8080/mqtt');
  });
});
