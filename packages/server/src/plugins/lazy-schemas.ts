/**
 * Route schemas compiled when a route is first used instead of when the server starts. Fastify compiles a
 * validator (Ajv) for every body, query and params schema and a serializer (fast-json-stringify) for every
 * response schema while it registers routes: about a second of CPU for this API, paid on every start (and by
 * every test that builds the app), for routes most processes never call. The same compilers, with the same
 * options and shared schemas, run on the first request of each route instead. `compileAll` compiles whatever
 * is still pending, so a test can prove every schema compiles (decision 019's start-up figures).
 */
import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Validate = ((data: unknown) => unknown) & { errors?: unknown };
/** What Fastify passes to a compiler for one part of one route. */
type RouteSchema = Record<string, unknown>;
type Factory<F> = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => F;

export interface LazySchemas {
  /** For Fastify's `schemaController.compilersFactory`. */
  compilersFactory: CompilersFactory;
  /** Compiles every schema not compiled yet; the number compiled. Throws what a schema's compiler throws. */
  compileAll(): number;
}

export function lazySchemaCompilers(): LazySchemas {
  const pending = new Set<() => unknown>();
  const validators = AjvCompiler() as unknown as Factory<Validate>;
  const serializers = SerializerSelector() as unknown as Factory<(data: unknown) => string>;

  const buildValidator: Factory<Validate> = (externalSchemas, options) => {
    const compile = validators(externalSchemas, options);
    return (route) => {
      let validate: Validate | null = null;
      const ready = (): Validate => {
        if (!validate) {
          validate = compile(route);
          pending.delete(ready);
        }
        return validate;
      };
      pending.add(ready);
      // Fastify reads `.errors` from the function it called after a `false`, as Ajv's functions carry them.
      const lazy: Validate = (data) => {
        const fn = ready();
        const result = fn(data);
        lazy.errors = fn.errors;
        return result;
      };
      return lazy;
    };
  };

  const buildSerializer: Factory<(data: unknown) => string> = (externalSchemas, options) => {
    const compile = serializers(externalSchemas, options);
    return (route) => {
      let serialize: ((data: unknown) => string) | null = null;
      const ready = () => {
        if (!serialize) {
          serialize = compile(route);
          pending.delete(ready);
        }
        return serialize;
      };
      pending.add(ready);
      return (data: unknown) => ready()(data);
    };
  };

  return {
    // Fastify's own types for these factories are Ajv's and fast-json-stringify's; the wrappers keep their contract.
    compilersFactory: { buildValidator, buildSerializer } as unknown as CompilersFactory,
    compileAll() {
      let n = 0;
      for (const ready of [...pending]) {
        ready();
        n++;
      }
      return n;
    },
  };
}
