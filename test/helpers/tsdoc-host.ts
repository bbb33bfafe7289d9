/**
 * The host's own values a TSDoc `@example` may use without defining them (the convention is in the
 * README, "Developing"; test/tsdoc-examples.test.ts checks it). Every example is compiled as a
 * module of its own with these in scope, unless the example declares or imports the same name.
 * Keep the list short and the types real: a name that is not here is declared by the example itself
 * (`declare const form: HTMLFormElement;`) or built in it.
 */
import type { ApproveHook, PlanConfig, LLMMessage, LLMProvider, LLMRequest, LoopTool, Plan, PlanStorageAdapter } from 'planloop';
import type { PlanPanelElement } from 'planloop/ui';

/** The host's plan (`new Plan({ llm, storage })` somewhere else in the page). */
export declare const plan: Plan;
/** The model the host calls (any {@link LLMProvider}: a `create*Provider` result, a router, a fake). */
export declare const provider: LLMProvider;
/** The same model under the name {@link PlanConfig} gives it (`new Plan({ llm })`). */
export declare const llm: LLMProvider;
/** A request the host has built for {@link provider}. */
export declare const request: LLMRequest;
/** A conversation the host has built. */
export declare const messages: LLMMessage[];
/** Where the host keeps the plan (a `create*Adapter` result). */
export declare const adapter: PlanStorageAdapter;
/** The user's task, as they typed it. */
export declare const task: string;
/** The host's tools for the turn loop (`startRun(plan, { tools })`). */
export declare const tools: Record<string, LoopTool>;
/** The host's approval hook (`startRun(plan, { approval: { ask: onApprove } })`). */
export declare const onApprove: ApproveHook;
/** The page's `<plan-panel>` element. */
export declare const panel: PlanPanelElement;
/** The host's stop button's signal. */
export declare const signal: AbortSignal;
/** The controller behind {@link signal}. */
export declare const controller: AbortController;
