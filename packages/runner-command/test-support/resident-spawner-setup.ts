// `pnpm test:resident-spawner`: every test of the package runs its processes through the resident
// spawner, as `hookline serve` does, and must pass the same.
import process from 'node:process';
import { useResidentSpawner } from '../src/resident-spawner-switch.ts';

if (process.env['HOOKLINE_TEST_RESIDENT_SPAWNER'] === '1') useResidentSpawner();
