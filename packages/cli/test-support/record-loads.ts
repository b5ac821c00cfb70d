// Preloaded with `node --import` by the lazy-loading test: records the URL of every module the
// process loads (node: builtins included) and writes them, one per line, to $HOOKLINE_LOADS_FILE
// when the process exits. A synchronous in-thread hook (module.registerHooks) sees every load.
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import process from 'node:process';

const loaded: string[] = [];
registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  const file = process.env['HOOKLINE_LOADS_FILE'];
  if (file !== undefined) writeFileSync(file, loaded.join('\n'));
});
