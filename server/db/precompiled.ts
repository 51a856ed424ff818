import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { directRunnerOf } from './connect';
import type { Database } from './types';

/** Stands in for an argument while the query is built; found again among the compiled parameters. */
class Placeholder {
  constructor(readonly name: string) {}
}

type Placeholders<A> = { readonly [K in keyof A]: A[K] };

/**
 * SQL texts of precompiled statements, with a name for each: on PostgreSQL a connection prepares
 * such a text once (parse and plan) and then only binds and executes it (see connect.ts).
 */
export const PREPARED_STATEMENT_NAMES = new Map<string, string>();

/**
 * A query built and compiled once per database handle, then run with new arguments: for the
 * hottest statements, where building and compiling a Kysely query cost as much as running it.
 * `build` receives stand-ins for the arguments (use each only as a bound value, never in
 * arithmetic or branches: the query's shape must not depend on them).
 */
export function precompiled<A extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, args: Placeholders<A>) => Compilable<R>,
): (db: Kysely<Database>, args: A) => Promise<R[]> {
  const compiledFor = new WeakMap<Kysely<Database>, CompiledQuery<R>>();
  return async (db, args) => {
    let compiled = compiledFor.get(db);
    if (!compiled) {
      const stand = new Proxy({} as Placeholders<A>, { get: (_target, name) => new Placeholder(String(name)) });
      compiled = build(db, stand).compile();
      compiledFor.set(db, compiled);
      if (!PREPARED_STATEMENT_NAMES.has(compiled.sql)) PREPARED_STATEMENT_NAMES.set(compiled.sql, `hot_${PREPARED_STATEMENT_NAMES.size + 1}`);
    }
    const parameters = compiled.parameters.map((p) => (p instanceof Placeholder ? args[p.name] : p));
    const direct = directRunnerOf(db)?.(compiled.sql, parameters);
    if (direct) return direct as R[];
    const result = await db.executeQuery<R>({ ...compiled, parameters });
    return result.rows;
  };
}
