/*
 * The rooms a plan loads on first use, as one chunk: loading and saving the stored plan (with the
 * plan's side of sync) and run control. One chunk, not three: a page that uses storage or runs a
 * turn loop needs them together, and every chunk costs its own request and compression.
 */
export { discardStoredPlan, loadStoredPlan } from './load-stored-plan.js';
export { acquireRun } from './run-control.js';
