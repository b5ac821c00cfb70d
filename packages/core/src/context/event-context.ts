/**
 * The context of one event: always `event`, plus the preset's required fields (`run_id`,
 * `workflow_name` for `arc`), optional documented fields and anything the host adds.
 */
export interface EventContext {
  readonly event: string;
  readonly [field: string]: unknown;
}
