import { defineJob, jobSpec, Priority, type JobDefinition } from '../../platform/jobs/job.js';
import type { JobQueue } from '../../platform/jobs/job-queue.js';
import type { BackupService } from './backup.service.js';

/** How often the sweep looks for users whose backup is due. */
export const BACKUP_SWEEP_MS = 60 * 60_000;

/** One sweep per hour slot: every process may ask for the next one, the dedupe key keeps it single. */
export const backupSweepKey = (at: number) => `backup-links:${Math.floor(at / BACKUP_SWEEP_MS)}`;

/**
 * The automatic backups' sweep: writes the backups that are due, then queues the next sweep an
 * hour on. Bulk: it never delays a save's analysis. A failed sweep is retried twice; the next
 * one is queued at the next start-up if all failed.
 */
export const backupLinksSpec = jobSpec({
  name: 'backup-links',
  priority: Priority.bulk,
  retry: { attempts: 3, backoff: { baseMs: 60_000, factor: 4, maxMs: 30 * 60_000 } },
});

export async function queueNextBackupSweep(queue: JobQueue, now: number): Promise<void> {
  const at = (Math.floor(now / BACKUP_SWEEP_MS) + 1) * BACKUP_SWEEP_MS;
  await queue.enqueue('backup-links', {}, { runAt: at, dedupeKey: backupSweepKey(at) });
}

export function backupLinksJob(
  backups: BackupService,
  queue: JobQueue,
  now: () => number,
): JobDefinition<'backup-links'> {
  return defineJob(backupLinksSpec, {
    async run(_payload, ctx) {
      await backups.runDue(ctx.signal);
      await queueNextBackupSweep(queue, now());
    },
  });
}
