/**
 * Request and answer over Node's IPC channel, for bench scripts that drive child processes (the server in
 * one, the phones in another) without opening any port for the purpose.
 */
import { fork, type ChildProcess } from 'node:child_process';

interface Request {
  id: number;
  type: string;
  payload: unknown;
}
interface Answer {
  id: number;
  result?: unknown;
  error?: string;
}

export interface Child {
  process: ChildProcess;
  ask<T>(type: string, payload?: unknown): Promise<T>;
  /** Resolves with the first message of this type the child sends by itself (not an answer). */
  next<T>(type: string): Promise<T>;
  stop(): Promise<void>;
}

/** Starts `script` under tsx; `--expose-gc` lets the child measure its memory after a full collection. */
export function startChild(script: URL, env: NodeJS.ProcessEnv = process.env): Child {
  // BENCH_CPU_PROF=<folder>: each child writes a V8 CPU profile there when it exits (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = fork(script.pathname, [], { execArgv: ['--import', 'tsx', '--expose-gc', ...profile], env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let lastId = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<string, Array<(v: unknown) => void>>();
  child.on('message', (message: Answer | { event: string; data: unknown }) => {
    if ('event' in message) {
      const list = listeners.get(message.event) ?? [];
      listeners.delete(message.event);
      for (const resolve of list) resolve(message.data);
      return;
    }
    const waiter = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error !== undefined) waiter?.reject(new Error(message.error));
    else waiter?.resolve(message.result);
  });
  child.on('exit', (code) => {
    for (const waiter of waiting.values()) waiter.reject(new Error(`${script.pathname} exited with ${code}`));
    waiting.clear();
  });
  return {
    process: child,
    ask<T>(type: string, payload?: unknown) {
      return new Promise<T>((resolve, reject) => {
        if (child.exitCode !== null) return reject(new Error(`${script.pathname} has exited`));
        const id = ++lastId;
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, type, payload } satisfies Request);
      });
    },
    next<T>(type: string) {
      return new Promise<T>((resolve, reject) => {
        listeners.set(type, [...(listeners.get(type) ?? []), resolve as (v: unknown) => void]);
        child.once('exit', (code) => reject(new Error(`${script.pathname} exited with ${code} before "${type}"`)));
      });
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** In the child: answers each request with its handler's result (or its error's message). */
export function serveParent(handlers: Record<string, (payload: never) => Promise<unknown>>): void {
  process.on('message', (message: Request) => {
    const handler = handlers[message.type];
    const answer = (a: Omit<Answer, 'id'>) => process.send!({ id: message.id, ...a });
    if (!handler) return answer({ error: `no handler for ${message.type}` });
    handler(message.payload as never).then(
      (result) => answer({ result }),
      (error: unknown) => answer({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
}

/** In the child: tells the parent something happened (see Child.next). */
export function tellParent(event: string, data: unknown = null): void {
  process.send!({ event, data });
}

/** A full collection, twice, with a turn of the event loop between so finalisers can run. */
export async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  for (let i = 0; i < 2; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
}
