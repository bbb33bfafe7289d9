/** Events of a graph run, one payload each. Indices are positions in the plan that ran. */
export interface ToolGraphEvents {
  'call-start': { readonly index: number; readonly tool: string; readonly args: Record<string, unknown> };
  'call-end': { readonly index: number; readonly tool: string; readonly result: unknown; readonly wrote: readonly string[] };
  /** `handled`: the error went to the call's error path and the run goes on. */
  'call-error': { readonly index: number; readonly tool: string; readonly error: unknown; readonly handled: boolean; readonly wrote: readonly string[] };
  /** The call can never run: a path it needs will never be written (another alternative was taken). */
  'call-skip': { readonly index: number; readonly tool: string; readonly reason: string };
}
