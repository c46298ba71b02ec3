/** Small helpers shared by the bench scripts: a keep-alive HTTP load loop and percentile maths. */
import http from 'node:http';
import { loadConfig } from '../packages/server/src/config.ts';

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Sends `total` requests with `concurrency` in flight; `headersFor(i)` gives each request its headers. */
export async function load(url: string, total: number, concurrency: number, headersFor: (i: number) => Record<string, string>): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, agent, headers: headersFor(i) }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) errors++;
          latencies.push(performance.now() - started);
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await one(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { requests: total, seconds, rps: total / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** The server's configuration for a bench child: quiet, a throwaway PGlite (or DATABASE_URL), the embedded broker on a free port. */
export function benchServerConfig(extra: Record<string, string | undefined> = {}) {
  const env: Record<string, string> = {
    APP_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory://', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', CONSOLE_DIST: '/nonexistent',
  };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return loadConfig(env);
}
