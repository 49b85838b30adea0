// The toast band: live alerts queued one at a time for 5 s (docs/CLIENT-CONTRACT.md), ordered by level, then time (a Critical
// first, lib/alert-queue), and short notices. Decision 040: the band takes its own room at the bottom of the
// window and the page scrolls above it, so a toast never covers an action of the page; on a screen that fits the
// window (the live map) the toasts float over its bottom-right corner instead, so the map keeps its rows (decision
// 105). Informational alerts are toasted only when this browser asked for them; a toast goes as soon as its alert is
// acknowledged or resolved anywhere; "Dismiss all" never takes a Critical.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { alertTypeOfLevel, type AlertType } from '@prison/shared/constants';
import type { ShowAlertEvent } from '@prison/shared/realtime';
import { clsx } from 'clsx';
import { dismissRoutine, dropAlerts, enqueueAlert } from './alert-queue';
import { informationalToasts } from './informational-toasts';
import { prisonerLabel } from './prisoner-label';

export const TOAST_DURATION_MS = 5000;
export type NoticeTone = 'success' | 'error' | 'info';

interface Notice {
  id: number;
  text: string;
  tone: NoticeTone;
}

interface ToastApi {
  /** A short message (e.g. "Prisoner created successfully!"), shown for 5 s. */
  notify(text: string, tone?: NoticeTone): void;
  /** A live alert: queued (a Critical one next), shown one at a time for 5 s; Informational only when switched on. */
  pushAlert(alert: ShowAlertEvent): void;
  /** Alerts acknowledged or resolved (here or anywhere): their toasts go, the one on screen included. */
  dropAlerts(ids: readonly number[]): void;
  /** Float the toasts over the page's bottom-right corner (a screen that fits the window) instead of a band. */
  setFloating(on: boolean): void;
}

const ToastContext = createContext<ToastApi | null>(null);

export const alertTone: Record<AlertType, string> = {
  Critical: 'border-red-600 bg-red-50 text-red-900',
  Warning: 'border-yellow-500 bg-yellow-50 text-yellow-900',
  Informational: 'border-blue-500 bg-blue-50 text-blue-900',
};

const noticeTone: Record<NoticeTone, string> = {
  success: 'border-green-600 bg-green-50 text-green-900',
  error: 'border-red-600 bg-red-50 text-red-900',
  info: 'border-slate-400 bg-white text-slate-900',
};

/** Extra content a feature renders inside an alert toast (Acknowledge and Open). */
export type AlertToastActions = (alert: ShowAlertEvent) => ReactNode;

export function ToastProvider({ children, alertActions }: { children: ReactNode; alertActions?: AlertToastActions }) {
  const [queue, setQueue] = useState<ShowAlertEvent[]>([]);
  const [notices, setNotices] = useState<Notice[]>([]);
  const [floating, setFloating] = useState(false);
  const nextId = useRef(1);

  const notify = useCallback((text: string, tone: NoticeTone = 'success') => {
    const id = nextId.current++;
    setNotices((all) => [...all, { id, text, tone }]);
    setTimeout(() => setNotices((all) => all.filter((n) => n.id !== id)), TOAST_DURATION_MS);
  }, []);

  const pushAlert = useCallback((alert: ShowAlertEvent) => {
    // An event (an Informational zone entry, `needsAction` false) is no work: toasted only where asked for too.
    if ((alert.alert_type === 'informational' || alert.needsAction === false) && !informationalToasts.isOn()) return;
    setQueue((all) => enqueueAlert(all, alert));
  }, []);
  const dropAlertToasts = useCallback((ids: readonly number[]) => setQueue((all) => dropAlerts(all, ids)), []);

  // Show the head of the queue for 5 s, then drop it and show the next.
  const current = queue[0];
  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(() => setQueue((all) => all.slice(1)), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [current]);

  const api = useMemo(
    () => ({ notify, pushAlert, dropAlerts: dropAlertToasts, setFloating }),
    [notify, pushAlert, dropAlertToasts],
  );
  const showing = notices.length > 0 || current !== undefined;
  // "Dismiss all" is offered while it has something to take: a Warning or Informational toast, shown or waiting.
  const routineWaiting = queue.some((alert) => alert.alert_type !== 'critical');
  const criticalsWaiting = queue.slice(1).filter((alert) => alert.alert_type === 'critical').length;

  return (
    <ToastContext.Provider value={api}>
      <div className="relative flex h-full flex-col">
        {/* The page scrolls here, above the band: what the band holds never lies over a button of the page. */}
        <div className="min-h-0 flex-1 overflow-y-auto" data-scroll-root>
          {children}
        </div>
        <div
          data-testid="toast-area"
          data-floating={floating}
          className={clsx(
            'flex justify-end',
            floating
              ? 'pointer-events-none absolute right-2 bottom-6 z-[1000] max-w-[calc(100%-1rem)]'
              : ['shrink-0', showing && 'border-t border-slate-200 bg-slate-100 px-4 py-2'],
          )}
        >
          <div className="flex w-96 max-w-full flex-col gap-2">
            <div role="status" aria-live="polite" className="flex flex-col gap-2">
              {notices.map((notice) => (
                <div
                  key={notice.id}
                  className={clsx(
                    'pointer-events-auto rounded-md border-l-4 px-4 py-3 shadow-lg',
                    noticeTone[notice.tone],
                  )}
                >
                  {notice.text}
                </div>
              ))}
            </div>
            <div role="alert" aria-live="assertive">
              {current && (
                <div
                  data-testid="alert-toast"
                  data-alert-type={alertTypeOfLevel(current.alert_type)}
                  className={clsx(
                    'pointer-events-auto rounded-md border-l-4 px-4 py-3 shadow-lg',
                    alertTone[alertTypeOfLevel(current.alert_type)],
                  )}
                >
                  <div className="flex items-start justify-between gap-2">
                    <p className="text-xs font-semibold tracking-wide uppercase">{current.alert_type}</p>
                    <button
                      type="button"
                      aria-label="Dismiss alert"
                      className="text-sm"
                      onClick={() => setQueue((all) => all.slice(1))}
                    >
                      ✕
                    </button>
                  </div>
                  <p className="mt-1 font-medium">{current.message}</p>
                  {current.prisonerId !== undefined && (
                    <p className="mt-1 text-sm" data-testid="alert-toast-prisoner">
                      {prisonerLabel({
                        name: current.prisonerName ?? '',
                        prisonerId: current.prisonerId,
                        prisonNumber: current.prisonNumber,
                        cellId: current.cellId,
                      })}
                    </p>
                  )}
                  {/* Full-strength text: a faded line on the Warning and Critical colours fell below WCAG AA contrast. */}
                  {queue.length > 1 && (
                    <div className="mt-1 flex items-center justify-between gap-2 text-xs">
                      <p data-testid="alert-toast-waiting">
                        {queue.length - 1} more waiting
                        {criticalsWaiting > 0 && ` (${criticalsWaiting} Critical)`}
                      </p>
                      {/* A burst of alerts would otherwise hold the corner for minutes; the alerts screen keeps them all.
                          A Critical is never dismissed unseen: it stays in the queue. */}
                      {routineWaiting && (
                        <button
                          type="button"
                          className="underline hover:no-underline"
                          title="Dismiss the Warning and Informational toasts; Criticals stay"
                          onClick={() => setQueue(dismissRoutine)}
                        >
                          Dismiss all
                        </button>
                      )}
                    </div>
                  )}
                  {alertActions?.(current)}
                </div>
              )}
            </div>
          </div>
        </div>
      </div>
    </ToastContext.Provider>
  );
}

/** For a screen that fits the window: while it is shown, the toasts float over its bottom-right corner. */
export function useFloatingToasts(on: boolean) {
  const { setFloating } = useToast();
  useEffect(() => {
    setFloating(on);
    return () => setFloating(false);
  }, [on, setFloating]);
}

export function useToast(): ToastApi {
  const context = useContext(ToastContext);
  if (!context) throw new Error('useToast outside ToastProvider');
  return context;
}
