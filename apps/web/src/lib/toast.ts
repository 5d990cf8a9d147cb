import { toast as sonner, type ExternalToast } from 'sonner';

type Message = Parameters<typeof sonner.error>[0];

/** Error toasts still on screen, by id. */
const shownErrors = new Set<string | number>();

/**
 * An error toast. The same message again replaces the one on screen instead of stacking a copy
 * (a form submitted three times says it once).
 */
function error(message: Message, data?: ExternalToast): string | number {
  const id = data?.id ?? (typeof message === 'string' ? `error:${message}` : undefined);
  const forget = (t: { id: string | number }) => shownErrors.delete(t.id);
  const shown = sonner.error(message, {
    ...data,
    ...(id !== undefined && { id }),
    onDismiss: (t) => {
      forget(t);
      data?.onDismiss?.(t);
    },
    onAutoClose: (t) => {
      forget(t);
      data?.onAutoClose?.(t);
    },
  });
  shownErrors.add(shown);
  return shown;
}

/** A success toast. It retires the errors still showing: what they complained about has just worked. */
function success(message: Message, data?: ExternalToast): string | number {
  for (const id of shownErrors) sonner.dismiss(id);
  shownErrors.clear();
  return sonner.success(message, data);
}

/** Sonner's toast, with errors that do not stack copies and give way to the next success. */
export const toast: typeof sonner = Object.assign(
  (message: Message, data?: ExternalToast) => sonner(message, data),
  sonner,
  { error, success },
);
