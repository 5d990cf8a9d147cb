/** The kinds of object the search index is made of, in the order they are created. */
export const KINDS = ['column', 'table', 'function', 'view', 'index', 'trigger'] as const;
export type Kind = (typeof KINDS)[number];

/** One object of the search index as its engine's source file defines it. */
export interface SchemaObject {
  readonly kind: Kind;
  /** `users.search_version` for a column. */
  readonly name: string;
  /** The table of an index or trigger. */
  readonly table?: string;
  /** Statements that create it, in order. */
  readonly create: readonly string[];
  /** How the engine's catalog shows it once created, normalised (`catalog.ts` reads the same form). */
  readonly installed: string;
  /**
   * What the index holds depends on it (a table of index rows, the definition that computes them):
   * after it is created or replaced, the index is rebuilt from the links.
   */
  readonly rebuild?: boolean;
}

/** One engine's search index, in the order its objects are created. */
export interface SearchSchema {
  readonly objects: readonly SchemaObject[];
}

/** The index's own tables and views: every index and trigger on them is the index's. */
export const ownTables = (schema: SearchSchema): string[] =>
  schema.objects.filter((o) => o.kind === 'table' || o.kind === 'view').map((o) => o.name);

/**
 * Names whose mention makes SQL the index's: its tables and the columns it adds to others. A
 * trigger or function that names one belongs to the index, whichever table it is on.
 */
export const markers = (schema: SearchSchema): string[] => [
  ...ownTables(schema),
  ...schema.objects.filter((o) => o.kind === 'column').map((o) => o.name.split('.')[1]!),
];

/** An object as installed, in the same form as `SchemaObject.installed`. */
export interface InstalledObject {
  readonly kind: Kind;
  readonly name: string;
  readonly installed: string;
  /** The statement that removes it (none for a column: the index never drops one). */
  readonly drop: string;
}

/**
 * SQL compared modulo layout: runs of whitespace become one space, none around parentheses, commas
 * and semicolons, and double quotes around identifiers go (the schema builder adds them).
 */
export function normalizeSql(text: string): string {
  return text
    .replace(/"(\w+)"/g, (quoted, word: string) => (/^[a-z_][a-z0-9_]*$/.test(word) ? word : quoted))
    .replace(/\s+/g, ' ')
    .replace(/ ?([(),;]) ?/g, '$1')
    .trim();
}

/** Whether `sql` names `word` as a whole identifier. */
export const mentions = (sql: string, word: string): boolean => new RegExp(`\\b${word}\\b`).test(sql);
