import { parentPort } from 'node:worker_threads';
import { extractFacts } from './extract-facts.js';
import type { PageFacts } from './extractor.js';
import { serveWorker } from '../../lib/worker-client.js';

/** Parsing a large page (up to 2 MB) and running Readability takes up to a second: off the event loop. */
serveWorker<{ html: string; url: string }, PageFacts>(parentPort, ({ html, url }) => extractFacts(html, url));
