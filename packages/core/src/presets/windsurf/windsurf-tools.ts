import type { AgentCall } from '../agent-adapter.ts';
import { isObject, type CanonicalToolCall } from '../canonical-call.ts';

/**
 * The tool a Windsurf call is about, in canonical terms: Cascade's payloads name no tool, its event
 * does (its hooks reference) — a command (`tool_info.command_line`, `cwd`), a file read or write
 * (`file_path`, `edits`), an MCP tool (`mcp_server_name`, `mcp_tool_name`, `mcp_tool_arguments`).
 * `agent_tool_name` is the event's action (`run_command`, `read_code`, `write_code`, `mcp_tool_use`).
 */
export function windsurfTool(
  call: AgentCall,
): (CanonicalToolCall & { readonly agentName: string; readonly original: Record<string, unknown> }) | undefined {
  const info = isObject(call.payload['tool_info']) ? call.payload['tool_info'] : {};
  const action = call.agentEvent.replace(/^(pre|post)_/, '');
  switch (action) {
    case 'run_command':
      return {
        agentName: action,
        toolName: 'shell',
        input: { command: info['command_line'], ...(info['cwd'] === undefined ? {} : { cwd: info['cwd'] }) },
        original: { ...info },
      };
    case 'read_code':
      return {
        agentName: action,
        toolName: 'file_read',
        input: { file_path: info['file_path'] },
        original: { ...info },
      };
    case 'write_code':
      return {
        agentName: action,
        toolName: 'file_edit',
        input: { file_path: info['file_path'], edits: info['edits'] },
        original: { ...info },
      };
    case 'mcp_tool_use':
      return {
        agentName: action,
        toolName: 'mcp',
        input: isObject(info['mcp_tool_arguments']) ? info['mcp_tool_arguments'] : {},
        fields: { mcp_server: info['mcp_server_name'], mcp_tool: info['mcp_tool_name'] },
        original: { ...info },
      };
    default:
      return undefined;
  }
}
