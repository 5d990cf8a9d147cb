import * as AlertDialog from '@radix-ui/react-alert-dialog';
import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useRef, type FocusEvent, type ReactNode } from 'react';
import { ancestorsOf, focusNearest } from '../../lib/focus-rescue';
import { Button } from './button';

const overlay = 'fixed inset-0 z-40 bg-slate-900/50 backdrop-blur-sm';
/**
 * Centred from `sm` up. On a phone the panel rests at the bottom and stops 6rem short of the top:
 * that strip is where toasts go while a modal is open (index.css), so a toast never covers a field.
 */
const place =
  'fixed left-1/2 top-1/2 w-[calc(100vw-1.5rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white shadow-xl focus:outline-none dark:bg-slate-900 max-sm:top-auto max-sm:bottom-3 max-sm:translate-y-0';
const panel = `${place} z-50 max-h-[92vh] max-sm:max-h-[calc(100dvh-6rem)] overflow-y-auto p-5 sm:p-6`;
/** The form dialog: the header (title and Close) stays put and only the body below it scrolls. */
const framed = `${place} z-50 flex max-h-[92vh] max-sm:max-h-[calc(100dvh-6rem)] flex-col overflow-hidden`;

/**
 * Radix moves focus with `preventScroll` when Tab wraps around the trap (last → first and back), so
 * a control scrolled out of the body would take the focus unseen; bring it into view.
 */
function revealFocused(event: FocusEvent<HTMLElement>) {
  const body = event.currentTarget;
  const target = event.target;
  if (!(target instanceof Element) || target === body) return;
  const box = target.getBoundingClientRect();
  const view = body.getBoundingClientRect();
  if (box.top < view.top || box.bottom > view.bottom) target.scrollIntoView({ block: 'nearest' });
}

/**
 * Focus goes back to whatever had it when the dialog opened. Radix returns it only to a
 * `Dialog.Trigger`; our dialogs open from state (a card's button, a shortcut, a field's Escape),
 * so without this the focus would fall to <body> and a keyboard user would start over.
 */
function useReturnFocus(open: boolean) {
  const opener = useRef<HTMLElement | null>(null);
  const openerAncestors = useRef<HTMLElement[]>([]);
  const wasOpen = useRef(false);
  // Read while rendering the opening: by the time Radix's open event fires, a field's autoFocus
  // has already moved the focus into the dialog. (Idempotent however often React renders.)
  if (open && !wasOpen.current) {
    const active = document.activeElement;
    opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
    openerAncestors.current = opener.current ? ancestorsOf(opener.current) : [];
  }
  wasOpen.current = open;
  return {
    onCloseAutoFocus: (event: Event) => {
      const target = opener.current;
      if (target?.isConnected) {
        event.preventDefault();
        target.focus();
      } else if (focusNearest(openerAncestors.current)) {
        // The opener went with what the dialog did (a revoked token's row): its neighbours take focus.
        event.preventDefault();
      }
    },
  };
}

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
  /** Called instead of closing on Escape, overlay click or the close button (unsaved changes). */
  onRequestClose?: () => void;
  wide?: boolean;
  /**
   * Actions kept in view under the scrolling body (a form's submit names its form with `form=`).
   * Outside the body, a focused field can never be hidden beneath them.
   */
  footer?: ReactNode;
}

/** A modal dialog: focus is trapped and Escape closes the topmost dialog first (Radix). */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  onRequestClose,
  wide,
  footer,
}: DialogProps) {
  const returnFocus = useReturnFocus(open);
  const intercept = (event: Event) => {
    if (onRequestClose) {
      event.preventDefault();
      onRequestClose();
    }
  };
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlay} />
        <RadixDialog.Content
          className={`${framed} ${wide ? 'max-w-2xl' : 'max-w-md'}`}
          {...returnFocus}
          onEscapeKeyDown={(event) => {
            // Radix hears Escape before the focused control does: a field that handles Escape
            // itself (cancelling an inline rename) gets it, and the dialog stays open.
            if (event.target instanceof Element && event.target.closest('[data-own-escape]')) event.preventDefault();
            else intercept(event);
          }}
          onPointerDownOutside={intercept}
        >
          <div className="flex shrink-0 items-start justify-between gap-4 px-5 pb-3 pt-5 sm:px-6 sm:pt-6">
            <div>
              <RadixDialog.Title className="text-lg font-semibold">{title}</RadixDialog.Title>
              {description ? (
                <RadixDialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                  {description}
                </RadixDialog.Description>
              ) : (
                <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
              )}
            </div>
            <button
              type="button"
              aria-label="Close"
              className="rounded-md p-1 text-slate-500 hover:bg-slate-100 dark:hover:bg-slate-800"
              onClick={() => (onRequestClose ? onRequestClose() : onOpenChange(false))}
            >
              <X className="size-5" aria-hidden />
            </button>
          </div>
          {/* pt-1 leaves room for the first control's focus ring at the top of the scrolling body. */}
          <div
            data-dialog-body=""
            className="min-h-0 flex-1 overflow-y-auto px-5 pb-5 pt-1 sm:px-6 sm:pb-6"
            onFocus={revealFocused}
          >
            {children}
          </div>
          {footer !== undefined && (
            <div className="shrink-0 border-t border-slate-200 px-5 py-3 sm:px-6 dark:border-slate-800">{footer}</div>
          )}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

interface ConfirmProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  cancelLabel?: string;
  destructive?: boolean;
  onConfirm: () => void;
}

/** A confirmation on top of whatever is open; Escape closes only this one. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  destructive,
  onConfirm,
}: ConfirmProps) {
  const returnFocus = useReturnFocus(open);
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={`${overlay} z-[60]`} />
        <AlertDialog.Content className={`${panel} z-[70] max-w-sm`} {...returnFocus}>
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            {description}
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary">{cancelLabel}</Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button variant={destructive ? 'danger' : 'primary'} onClick={onConfirm}>
                {confirmLabel}
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
