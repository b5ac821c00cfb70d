import { Agent } from 'undici';
import { guardedConnector } from './guarded-connector.ts';
import { TLS_MODES, type TlsMode } from './http-keys.ts';
import type { ResolvedHttpRunnerSettings } from './http-runner-settings.ts';

/** The runner's connection pools: one keep-alive undici Agent per TLS mode and address guard. */
export interface AgentPool {
  /** The agent for hooks with this TLS mode, created on first use. */
  agentFor(tls: TlsMode, blockPrivateAddresses: boolean): Agent;
  /** Closes every agent (in-flight requests get `graceMs` to finish); later use creates new ones. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Creates the pools lazily, so constructing a runner does no I/O. Guarded agents are separate from
 * unguarded ones: a connection opened for a hook that may reach localhost must never be reused by a
 * hook that may not.
 */
export function createAgentPool(settings: ResolvedHttpRunnerSettings): AgentPool {
  // Slot = TLS mode × guard; an array because this lookup runs once per delivery.
  let agents: Array<Agent | undefined> = [];
  return {
    agentFor(tls, blockPrivateAddresses) {
      const slot = TLS_MODES.indexOf(tls) * 2 + (blockPrivateAddresses ? 1 : 0);
      return (agents[slot] ??= createAgent(settings, tls, blockPrivateAddresses));
    },
    async close(graceMs = 1_000) {
      const closing = agents.filter((agent) => agent !== undefined);
      agents = [];
      await Promise.all(closing.map((agent) => closeAgent(agent, graceMs)));
    },
  };
}

function createAgent(settings: ResolvedHttpRunnerSettings, tls: TlsMode, blockPrivateAddresses: boolean): Agent {
  // `off` only permits http://; an https:// url under it is still verified.
  const tlsOptions = { rejectUnauthorized: tls !== 'no_verify', timeout: settings.connectTimeoutMs };
  return new Agent({
    connections: settings.connectionsPerOrigin,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    pipelining: 1,
    connect: blockPrivateAddresses ? guardedConnector(tlsOptions, settings.lookup) : tlsOptions,
  });
}

async function closeAgent(agent: Agent, graceMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  const ending = await Promise.race([
    agent.close().then(
      () => 'closed' as const,
      () => 'closed' as const,
    ),
    late,
  ]);
  clearTimeout(timer);
  if (ending === 'late') await agent.destroy().catch(() => undefined);
}
