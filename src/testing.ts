/**
 * Fakes for testing agents built on planloop: a scripted model and an in-memory storage adapter.
 * Import from `planloop/testing`.
 */
export { createMemoryAdapter, type MemoryAdapter } from './storage/memory.js';
export {
  createScriptedProvider,
  type ScriptedProvider,
  type ScriptedProviderOptions,
  type ScriptedResponse,
  type ScriptedResponses,
  type ScriptedResponder,
  type ScriptedResult,
  type ScriptedCall,
} from './llm/scripted.js';
