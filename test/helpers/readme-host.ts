/**
 * The host's own values a README code block may use without defining them, when the block names
 * them in an HTML comment on the line before its fence: `<!-- assumes: plan, task -->` (the
 * convention is in the README, "Developing"; test/readme-code.test.ts checks it against the built
 * package's types). Keep the types real: a block that names one gets exactly this.
 */
import type { LoopTool, Plan } from 'planloop';
import type { PlanPanelElement } from 'planloop/ui';

/** The host's plan (`new Plan({ llm, storage })`, as the Quick start makes it). */
export declare const plan: Plan;
/** The user's task, as they typed it. */
export declare const task: string;
/** The host's tools for the turn loop (`runWebAgent({ tools })`). */
export declare const tools: Record<string, LoopTool>;
/** The page's `<plan-panel>` element. */
export declare const panel: PlanPanelElement;
/** The host's stop button's signal. */
export declare const signal: AbortSignal;
