import { defineJob, jobSpec, Priority, type JobDefinition } from '../../platform/jobs/job.js';
import type { ImportService } from './import.service.js';

/**
 * One uploaded file, read from its checkpoint to the end. Each batch commits its links together
 * with the checkpoint, so a run cut short (crash, SIGKILL, shutdown) resumes after the last
 * committed batch and creates no link twice. Bulk: interactive saves are analysed first.
 *
 * Retry policy: up to 5 attempts, 2 s × 4^(n−1) apart (a database restart, a full disk); a file
 * that cannot be read fails the import at once without retrying, keeping what was imported.
 */
export const importLinksSpec = jobSpec({
  name: 'import-links',
  priority: Priority.normal,
  retry: { attempts: 5, backoff: { baseMs: 2000, factor: 4, maxMs: 5 * 60_000 } },
});

export function importLinksJob(imports: ImportService): JobDefinition<'import-links'> {
  return defineJob(importLinksSpec, {
    run: ({ importId, userId }, ctx) => imports.run(importId, userId, ctx),
    onGiveUp: ({ importId, userId }, error) => imports.giveUp(importId, userId, error),
  });
}
