import { DEFAULT_CATEGORIES, LinkCreateSchema, LinkUpdateSchema, TagsInputSchema } from '@linkwise/contract';
import { useId, useState } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { z } from 'zod';
import { TextAreaField, TextField } from '../../../components/ui/field';

/**
 * A form field checked by the server's own schema for it, with its words, while the form keeps the
 * text as typed (the schema's output, trimmed or split, is the server's business).
 */
const asServerChecks = (schema: z.ZodType) =>
  z.string().superRefine((value, ctx) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'Invalid value' });
  });

/**
 * The fields' limits checked in the form: an over-long field is marked where it is, every one at
 * once, instead of one refusal at a time in a toast.
 */
export const LinkFieldRules = {
  description: asServerChecks(LinkCreateSchema.shape.description),
  category: asServerChecks(LinkCreateSchema.shape.category),
  tags: asServerChecks(TagsInputSchema),
  notes: asServerChecks(LinkCreateSchema.shape.notes),
};
/** Optional when a link is added; an edit must keep one (`Title is required`). */
export const addTitleRule = asServerChecks(LinkCreateSchema.shape.title);
export const editTitleRule = asServerChecks(LinkUpdateSchema.shape.title.unwrap());

export interface LinkFieldValues {
  title: string;
  description: string;
  category: string;
  tags: string;
  notes: string;
}

/** The user's categories first, then the twelve defaults, without repeats (case-insensitive). */
export function categorySuggestions(userCategories: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of [...userCategories, ...DEFAULT_CATEGORIES]) {
    const key = c.toLocaleLowerCase('en-US');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

/**
 * The analysis's second category as LinkFields offers it, while the field holds something else:
 * picking it puts it in the field and offers the one it replaced back.
 */
export function useOtherCategory(initial: string | null, current: string, setCategory: (value: string) => void) {
  const [other, setOther] = useState(initial);
  const offer =
    other && other !== current
      ? {
          name: other,
          pick: () => {
            setOther(current.trim() || null);
            setCategory(other);
          },
        }
      : undefined;
  return [offer, setOther] as const;
}

/** Title, description, category (suggests, accepts new), tags and notes: shared by add and edit. */
export function LinkFields<T extends LinkFieldValues>({
  register,
  errors,
  categories,
  titleLabel = 'Title',
  focusTitle = false,
  otherCategory,
}: {
  register: UseFormRegister<T>;
  errors: FieldErrors<LinkFieldValues>;
  categories: readonly string[];
  titleLabel?: string;
  /** The dialog opens on the title (an edit's URL is read-only), not on its Close button. */
  focusTitle?: boolean;
  /** A second category the analysis found fitting almost as well: one click puts it in the field. */
  otherCategory?: { name: string; pick: () => void } | undefined;
}) {
  const listId = useId();
  const reg = register as unknown as UseFormRegister<LinkFieldValues>;
  return (
    <>
      <TextField label={titleLabel} error={errors.title?.message} autoFocus={focusTitle} {...reg('title')} />
      <TextAreaField label="Description" error={errors.description?.message} {...reg('description')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <TextField
            label="Category"
            list={listId}
            autoComplete="off"
            placeholder="Choose or type a new one"
            error={errors.category?.message}
            {...reg('category')}
          />
          {otherCategory && (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              Also fits:{' '}
              <button
                type="button"
                aria-label={`Use ${otherCategory.name} instead`}
                className="rounded font-medium break-all text-brand-600 underline-offset-2 hover:underline focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-brand-100"
                onClick={otherCategory.pick}
              >
                {otherCategory.name}
              </button>
            </p>
          )}
          <datalist id={listId}>
            {categorySuggestions(categories).map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </div>
        <TextField
          label="Tags"
          placeholder="react, tutorial, frontend"
          hint="Separate tags with commas"
          error={errors.tags?.message}
          {...reg('tags')}
        />
      </div>
      <TextAreaField label="Notes" error={errors.notes?.message} {...reg('notes')} />
    </>
  );
}
