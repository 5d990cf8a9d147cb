import { sql, type Kysely } from 'kysely';
import type { Engine } from '../../db/database.js';
import { catalogForm, functionForm, tableForm } from './schema.postgres.js';
import { sqliteForm } from './schema.sqlite.js';
import {
  markers,
  mentions,
  ownTables,
  type InstalledObject,
  type Kind,
  type SchemaObject,
  type SearchSchema,
} from './schema-object.js';

/**
 * What of the search index a database holds, read from its catalog in the form the source files
 * describe their objects: the source's objects that exist, and any other index or trigger on the
 * index's own tables, or trigger, function, table or view that names them (a retired object, or
 * one a migration added without the source).
 */
export async function readInstalled(
  db: Kysely<unknown>,
  engine: Engine,
  schema: SearchSchema,
): Promise<InstalledObject[]> {
  return engine === 'sqlite' ? readSqlite(db, schema) : readPostgres(db, schema);
}

const FTS5_SHADOWS = ['data', 'idx', 'content', 'docsize', 'config'];

async function readSqlite(db: Kysely<unknown>, schema: SearchSchema): Promise<InstalledObject[]> {
  const known = new Set(schema.objects.map((o) => o.name));
  const own = ownTables(schema);
  const named = markers(schema);
  const { rows } = await sql<{ type: Kind; name: string; tbl_name: string; sql: string }>`
    select type, name, tbl_name, sql from sqlite_master
    where type in ('table', 'view', 'index', 'trigger') and sql is not null and name not like 'sqlite_%'`.execute(db);
  const virtual = rows.filter((r) => /^create virtual table/i.test(r.sql)).map((r) => r.name);
  const shadow = new Set(virtual.flatMap((v) => FTS5_SHADOWS.map((s) => `${v}_${s}`)));
  const out: InstalledObject[] = rows
    .filter((r) => !shadow.has(r.name))
    .filter(
      (r) =>
        known.has(r.name) ||
        own.includes(r.tbl_name) ||
        (r.type === 'trigger' ? named : own).some((m) => mentions(r.sql, m)),
    )
    .map((r) => ({
      kind: r.type,
      name: r.name,
      installed: sqliteForm(r.sql),
      drop: `drop ${r.type} if exists ${r.name}`,
    }));
  for (const column of schema.objects.filter((o) => o.kind === 'column')) {
    const [tableName, columnName] = column.name.split('.') as [string, string];
    const { rows: found } = await sql<{ type: string; notnull: number; dflt_value: string | null }>`
      select type, "notnull", dflt_value from pragma_table_info(${tableName}) where name = ${columnName}`.execute(db);
    const c = found[0];
    if (c) {
      out.push({
        kind: 'column',
        name: column.name,
        installed: `${c.type}${c.notnull ? ' not null' : ''}${c.dflt_value !== null ? ` default ${c.dflt_value}` : ''}`,
        drop: '',
      });
    }
  }
  return out;
}

const STORAGE: Record<string, string> = { p: 'plain', e: 'external', m: 'main', x: 'extended' };

async function readPostgres(db: Kysely<unknown>, schema: SearchSchema): Promise<InstalledObject[]> {
  const own = ownTables(schema);
  const named = markers(schema);
  const known = (kind: Kind) => new Set(schema.objects.filter((o) => o.kind === kind).map((o) => o.name));
  const { rows: here } = await sql<{ name: string }>`select current_schema() as name`.execute(db);
  const current = here[0]!.name;
  const columnsOf = new Set(schema.objects.filter((o) => o.kind === 'column').map((o) => o.name));
  const out: InstalledObject[] = [];

  const { rows: columns } = await sql<{
    tbl: string;
    name: string;
    type: string;
    not_null: boolean;
    dflt: string | null;
    storage: string;
    type_storage: string;
    collation: string | null;
  }>`
    select c.relname as tbl, a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
      a.attnotnull as not_null, pg_get_expr(d.adbin, d.adrelid) as dflt,
      a.attstorage as storage, ty.typstorage as type_storage,
      case when a.attcollation <> ty.typcollation then co.collname end as collation
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_type ty on ty.oid = a.atttypid
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    left join pg_collation co on co.oid = a.attcollation
    where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
      and (c.relname = any(${own}) or c.relname || '.' || a.attname = any(${[...columnsOf]}))
    order by c.relname, a.attnum`.execute(db);
  const describe = (c: (typeof columns)[number]) =>
    `${c.type}${c.collation ? ` collate "${c.collation}"` : ''}${c.not_null ? ' not null' : ''}${
      c.dflt !== null ? ` default ${c.dflt}` : ''
    }${c.storage !== c.type_storage ? ` storage ${STORAGE[c.storage]}` : ''}`;
  for (const c of columns) {
    const name = `${c.tbl}.${c.name}`;
    if (columnsOf.has(name)) out.push({ kind: 'column', name, installed: describe(c), drop: '' });
  }

  const { rows: tables } = await sql<{ name: string; options: string[] | null }>`
    select relname as name, reloptions as options from pg_class
    where relnamespace = current_schema()::regnamespace and relkind = 'r' and relname = any(${own})`.execute(db);
  const { rows: constraints } = await sql<{ tbl: string; def: string }>`
    select c.relname as tbl, pg_get_constraintdef(k.oid) as def
    from pg_constraint k join pg_class c on c.oid = k.conrelid
    where c.relnamespace = current_schema()::regnamespace and c.relname = any(${own})
      and k.contype in ('p', 'u', 'f', 'c', 'x')`.execute(db);
  for (const t of tables) {
    out.push({
      kind: 'table',
      name: t.name,
      installed: tableForm(
        t.name,
        columns.filter((c) => c.tbl === t.name).map((c) => `${c.name} ${describe(c)}`),
        constraints.filter((k) => k.tbl === t.name).map((k) => k.def),
        t.options,
      ),
      drop: `drop table if exists ${t.name} cascade`,
    });
  }

  const { rows: functions } = await sql<{ name: string; args: string; def: string; body: string }>`
    select p.proname as name, pg_get_function_identity_arguments(p.oid) as args,
      pg_get_functiondef(p.oid) as def, p.prosrc as body
    from pg_proc p
    where p.pronamespace = current_schema()::regnamespace and p.prokind = 'f'
      and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')`.execute(
    db,
  );
  const { rows: triggers } = await sql<{ name: string; tbl: string; fn: string; def: string }>`
    select t.tgname as name, c.relname as tbl, p.proname as fn, pg_get_triggerdef(t.oid) as def
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
    where not t.tgisinternal and c.relnamespace = current_schema()::regnamespace`.execute(db);
  const indexFunctions = known('function');
  const ours = new Set(
    functions.filter((f) => indexFunctions.has(f.name) || named.some((m) => mentions(f.body, m))).map((f) => f.name),
  );
  const ourTriggers = triggers.filter((t) => known('trigger').has(t.name) || own.includes(t.tbl) || ours.has(t.fn));
  for (const t of ourTriggers) {
    ours.add(t.fn);
    out.push({
      kind: 'trigger',
      name: t.name,
      installed: catalogForm(t.def, current),
      drop: `drop trigger if exists ${t.name} on ${t.tbl}`,
    });
  }
  for (const f of functions.filter((f) => ours.has(f.name))) {
    out.push({
      kind: 'function',
      name: f.name,
      installed: functionForm(f.def, current),
      drop: `drop function if exists ${f.name}(${f.args}) cascade`,
    });
  }

  const { rows: indexes } = await sql<{ name: string; def: string }>`
    select i.indexname as name, i.indexdef as def from pg_indexes i
    where i.schemaname = current_schema() and i.tablename = any(${own})
      and not exists (select 1 from pg_constraint k join pg_class ci on ci.oid = k.conindid
        where ci.relname = i.indexname and ci.relnamespace = current_schema()::regnamespace and k.contype in ('p', 'u', 'x'))`.execute(
    db,
  );
  for (const i of indexes) {
    out.push({
      kind: 'index',
      name: i.name,
      installed: catalogForm(i.def, current),
      drop: `drop index if exists ${i.name}`,
    });
  }
  return out;
}

/** A difference between the source and the database. */
export interface Drift {
  kind: Kind;
  name: string;
  problem: 'missing' | 'different' | 'unexpected';
  source?: string;
  installed?: string;
}

/** The objects of the source that `installed` matches, and the installed objects it has no place for. */
export function compare(
  schema: SearchSchema,
  installed: InstalledObject[],
): { matched: Map<SchemaObject, InstalledObject | undefined>; unexpected: InstalledObject[] } {
  const matched = new Map<SchemaObject, InstalledObject | undefined>();
  const used = new Set<InstalledObject>();
  for (const o of schema.objects) {
    const same = installed.filter((i) => i.kind === o.kind && i.name === o.name);
    // Two functions of one name (another argument list): the one that matches, else the first.
    const chosen = same.find((i) => i.installed === o.installed) ?? same[0];
    if (chosen) used.add(chosen);
    matched.set(o, chosen);
  }
  return { matched, unexpected: installed.filter((i) => !used.has(i)) };
}

/** Every difference between what the database holds and the engine's source; none when in step. */
export async function drift(db: Kysely<unknown>, engine: Engine, schema: SearchSchema): Promise<Drift[]> {
  const { matched, unexpected } = compare(schema, await readInstalled(db, engine, schema));
  const out: Drift[] = [];
  for (const [o, i] of matched) {
    if (!i) out.push({ kind: o.kind, name: o.name, problem: 'missing', source: o.installed });
    else if (i.installed !== o.installed) {
      out.push({ kind: o.kind, name: o.name, problem: 'different', source: o.installed, installed: i.installed });
    }
  }
  for (const i of unexpected) out.push({ kind: i.kind, name: i.name, problem: 'unexpected', installed: i.installed });
  return out;
}
