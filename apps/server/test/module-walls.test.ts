import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const file = (p: string) => `${root}apps/server/src/${p}`;

/**
 * The module walls are lint rules (eslint.config.js): these run the project's own configuration on
 * code that breaks a wall, as `npm run lint` would, and on code that keeps to them.
 */
describe('module walls', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({
      cwd: root,
      // With CI=true typescript-eslint assumes a one-off run and parses files from disk, not the text given here.
      overrideConfig: { languageOptions: { parserOptions: { disallowAutomaticSingleRunInference: true } } },
    });
  });

  const wallErrors = async (at: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: file(at) });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
  };

  it('refuses a lower module importing a higher one', async () => {
    expect(
      await wallErrors(
        'modules/ml/embedder.ts',
        "import { LinkService } from '../links/link.service.js';\nexport type X = LinkService;\n",
      ),
    ).toEqual([expect.stringContaining('the ml module may not import the links module')]);
    expect(
      await wallErrors(
        'modules/billing/plans.ts',
        "import type { Actor } from '../auth/auth.service.js';\nexport type X = Actor;\n",
      ),
    ).toHaveLength(1);
    // links → search would close the loop search → links.
    expect(
      await wallErrors(
        'modules/links/link.service.ts',
        "import type { SearchService } from '../search/search.service.js';\nexport type X = SearchService;\n",
      ),
    ).toHaveLength(1);
    // The first lint builds the type-aware program of the whole server (the Stripe SDK's types are
    // large): slow on a busy machine, once.
  }, 120_000);

  it('refuses platform code importing a feature module', async () => {
    expect(
      await wallErrors(
        'platform/jobs/job.ts',
        "import type { LinkService } from '../../modules/links/link.service.js';\nexport type X = LinkService;\n",
      ),
    ).toEqual([expect.stringContaining('platform/ is platform code: it may not import a feature module')]);
  });

  it('allows what the walls allow', async () => {
    expect(
      await wallErrors(
        'modules/search/search.service.ts',
        "import type { LinkService } from '../links/link.service.js';\nexport type X = LinkService;\n",
      ),
    ).toEqual([]);
    expect(
      await wallErrors(
        'modules/links/link.service.ts',
        "import type { JobQueue } from '../../platform/jobs/job-queue.js';\nexport type X = JobQueue;\n",
      ),
    ).toEqual([]);
  });
});
