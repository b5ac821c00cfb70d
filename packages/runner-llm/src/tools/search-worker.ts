// Worker-thread entry of run-search.ts: runs one search job from workerData and posts its result.
import { parentPort, workerData } from 'node:worker_threads';
import type { SearchJob } from './search-job.ts';
import { searchFiles } from './search-files.ts';

parentPort?.postMessage(await searchFiles(workerData as SearchJob));
