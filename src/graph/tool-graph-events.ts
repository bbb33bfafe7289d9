/** The events of a graph run: defined with the plan's events, since a mirrored run emits them on the plan. */
export type { ToolGraphEvents } from '../events.js';
