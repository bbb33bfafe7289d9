/*
 * The todo caps on their own: the planner (loaded on first use) needs them, not the rest of
 * todos.ts, so that the two share no more than this.
 */

/**
 * The longest todo fields, in characters: a description is one user-facing line, an intent one
 * word. Longer input (a model that pasted a page into a todo) is refused, not stored. The caps
 * apply to what is written now (by the model, the host or the user); a plan stored before they
 * existed (0.1 had none) opens as it was, and its long todos stay usable.
 *
 * @example
 * ```ts
 * declare const description: string; // what the user typed
 * description.length <= TODO_LIMITS.description;
 * ```
 */
export const TODO_LIMITS = { description: 1000, intent: 40, id: 64 } as const;
