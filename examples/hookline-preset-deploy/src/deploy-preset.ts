import {
  definePreset,
  fieldsOf,
  readHooklineExit,
  type EmitOutcome,
  type EventContext,
  type WireAnswer,
} from '@hookline/core/plugin';
import { deployStarter } from './deploy-starter.ts';

/**
 * The hook events of a deploy tool: before a deploy (its hooks may stop it), after it succeeded or
 * failed. Hooks are Hookline's own `[[hooks]]` tables; command hooks answer with Hookline's exit codes
 * and decision JSON, and read the deploy from `DEPLOY_*` variables.
 */
export const deployPreset = definePreset({
  name: 'deploy',
  events: [
    {
      name: 'before_deploy',
      blocking: true,
      honours: ['block'],
      description: 'before a service is deployed; a block stops the deploy',
    },
    { name: 'after_deploy', blocking: false, honours: [], description: 'after a deploy succeeded', endsSession: true },
    { name: 'deploy_failed', blocking: false, honours: [], description: 'after a deploy failed', endsSession: true },
  ],
  context: {
    deploy_id: { type: 'string', required: true, cliDefault: { kind: 'session-key' } },
    service: { type: 'string', required: true, cliDefault: { kind: 'text', text: 'cli' } },
    ...fieldsOf('string', 'environment', 'version', 'cwd', 'failure_reason'),
  },
  matcherFields: ['service', 'environment'],
  sessionField: 'deploy_id',
  command: {
    readExit: readHooklineExit,
    shell: 'sh',
    environment: { variables: deployVariables, contextFileVariable: 'DEPLOY_HOOK_CONTEXT' },
  },
  // A file named deploy-hooks.toml is written for this preset even when it does not say so.
  recognises: (source) => source.file.endsWith('deploy-hooks.toml'),
  writeAnswer: writeDeployAnswer,
  starter: { text: deployStarter, tryEmit: 'before_deploy --set service=web --set environment=staging' },
});

function deployVariables(context: EventContext): Record<string, string> {
  const variables: Record<string, string> = {
    DEPLOY_EVENT: context.event,
    DEPLOY_ID: String(context['deploy_id']),
    DEPLOY_SERVICE: String(context['service']),
  };
  if (typeof context['environment'] === 'string') variables['DEPLOY_ENVIRONMENT'] = context['environment'];
  return variables;
}

/** The deploy tool reads a hook's answer by exit code: 0 goes ahead, 1 stops with the reason on stderr. */
function writeDeployAnswer(outcome: EmitOutcome): WireAnswer {
  if (outcome.decision !== 'block') return { exitCode: 0 };
  return { exitCode: 1, stderr: `${outcome.reason ?? `stopped by hook "${outcome.decided_by ?? '?'}"`}\n` };
}
