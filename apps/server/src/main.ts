import { limitMallocArenas } from './lib/native-memory.js';

// First, before the server's modules load: this may start the process again in place (decision 0021).
limitMallocArenas();
await import('./start.js');
