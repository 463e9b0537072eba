import { applyD1Migrations, reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import schemaSql from '../schema.sql?raw';

/**
 * schema.sql is the one file a reader opens to see the database (decisions.md, "Schema changes"); the
 * migrations are what runs. Both are applied to an empty database here and must give the same schema and
 * the same plans.
 */

interface SchemaObject {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** Comments out, whitespace collapsed, none around punctuation: two spellings of one statement compare equal. */
function normalise(sql: string | null): string | null {
  return sql
    ?.replace(/--[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([(),])\s*/g, '$1')
    .trim() ?? null;
}

async function schemaAndPlans(): Promise<{ objects: SchemaObject[]; plans: unknown[] }> {
  // D1's own bookkeeping (the migrations table, _cf_ tables) is not part of the schema.
  const { results } = await env.DB.prepare(
    "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations' ORDER BY type, name",
  ).all<SchemaObject>();
  const plans = (await env.DB.prepare('SELECT * FROM plans ORDER BY name').all()).results;
  return { objects: results.map((o) => ({ ...o, sql: normalise(o.sql) })), plans };
}

/** schema.sql's statements, split at the semicolons that end them (no statement holds one in a string). */
function statements(sql: string): string[] {
  return sql
    .replace(/--[^\n]*/g, '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

describe('schema.sql', () => {
  it('is the schema the migrations make, plans included', async () => {
    await reset();
    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
    const migrated = await schemaAndPlans();
    expect(migrated.objects.map((o) => o.name)).toContain('accounts');

    await reset();
    await env.DB.batch(statements(schemaSql).map((sql) => env.DB.prepare(sql)));
    const fromFile = await schemaAndPlans();

    expect(fromFile.objects).toEqual(migrated.objects);
    expect(fromFile.plans).toEqual(migrated.plans);
    await reset();
    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  });
});
