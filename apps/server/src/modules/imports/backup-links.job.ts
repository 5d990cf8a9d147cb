import { defineJob, jobSpec, Priority, type JobDefinition } from '../../platform/jobs/job.js';
import type { JobQueue } from '../../platform/jobs/job-queue.js';
import type { BackupService } from './backup.service.js';

/** How often the sweep looks for users whose backup is due. */
export const BACKUP_SWEEP_MS = 60 * 60_000;

/** One sweep per hour slot: every process may ask for it, the dedupe key keeps it single. */
export const backupSweepKey = (at: number) => `backup-links:${Math.floor(at / BACKUP_SWEEP_MS)}`;

/**
 * The automatic backups' sweep: writes the backups that are due. Bulk: it never delays a save's
 * analysis. A failed sweep is retried twice; the next hour's sweep tries again anyway.
 */
export const backupLinksSpec = jobSpec({
  name: 'backup-links',
  priority: Priority.bulk,
  retry: { attempts: 3, backoff: { baseMs: 60_000, factor: 4, maxMs: 30 * 60_000 } },
});

/** The first sweep after a start waits this long (a process restarted in a loop still sweeps). */
const FIRST_SWEEP_MS = 5 * 60_000;

/**
 * Every process that runs jobs asks for a sweep five minutes after it starts and then hourly; the
 * hour slot in the dedupe key keeps it to one sweep per hour whatever the number of workers. Timers,
 * not a job that queues itself: nothing sits in the queue between sweeps. Returns the stop function.
 */
export function scheduleBackupSweeps(queue: JobQueue, now: () => number, log: (error: unknown) => void): () => void {
  const ask = () => {
    queue.enqueue('backup-links', {}, { dedupeKey: backupSweepKey(now()) }).catch(log);
  };
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    ask();
    interval = setInterval(ask, BACKUP_SWEEP_MS).unref();
  }, FIRST_SWEEP_MS).unref();
  return () => {
    clearTimeout(first);
    clearInterval(interval);
  };
}

export function backupLinksJob(backups: BackupService): JobDefinition<'backup-links'> {
  return defineJob(backupLinksSpec, {
    async run(_payload, ctx) {
      await backups.runDue(ctx.signal);
    },
  });
}
